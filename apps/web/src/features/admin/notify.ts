import { notifications } from '@mantine/notifications';

/** A short confirmation in the corner, readable (contrast) and closable by name (axe button-name). */
export function notify({
  title,
  message,
  failed = false,
}: {
  title: string;
  message: string;
  failed?: boolean;
}) {
  notifications.show({
    title,
    message,
    color: failed ? 'red' : 'teal',
    closeButtonProps: { 'aria-label': 'Close notification' },
    // Mantine greys the message under a title (gray 6, 3.3:1 on white); the theme's dimmed passes.
    styles: { description: { color: 'var(--mantine-color-dimmed)' } },
  });
}
