import { NotificationsScreen } from './screens/notifications-screen';
import { PreferencesScreen } from './screens/preferences-screen';

/** Notifications (any signed-in user) and a donor's or patient's profile, one chunk loaded by app/router.tsx. */

export function NotificationsRoute() {
  return <NotificationsScreen />;
}

export function ProfileRoute() {
  return <PreferencesScreen />;
}
