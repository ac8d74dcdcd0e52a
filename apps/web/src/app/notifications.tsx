// The corner notifications, loaded on demand by AppNotifications (providers.tsx).
export { Notifications as default } from '@mantine/notifications';
