import type { MouseEvent } from 'react';
import { Box, Button, Group, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { Notification } from '@bloodbank/shared/notifications';
import { formatDateTime } from '@/lib/format';
import classes from './notifications.module.css';
import { timeAgo } from './time-ago';

interface NotificationItemsProps {
  items: readonly Notification[];
  onRead: (id: number) => void;
  /** `compact` (the bell): a click on an unread one marks it read. `full` (the page): a button does. */
  variant: 'compact' | 'full';
  busy?: boolean;
}

/** The notifications, newest first: unread ones tinted, with a dot and the word "Unread" for screen readers. */
export function NotificationItems({ items, onRead, variant, busy = false }: NotificationItemsProps) {
  // Once read, the button is gone: focus stays on the notification rather than falling to the page.
  const read = (id: number) => (event: MouseEvent<HTMLElement>) => {
    event.currentTarget.closest<HTMLElement>('li')?.focus();
    onRead(id);
  };
  return (
    <Box component="ul" className={classes.list} data-variant={variant}>
      {items.map((item) => (
        <li
          key={item.id}
          className={classes.item}
          data-unread={!item.read}
          data-notification-id={item.id}
          // Focusable from script only: "Show older notifications" moves focus to the first it added,
          // and marking one read keeps focus here.
          tabIndex={-1}
        >
          {variant === 'compact' && !item.read ? (
            <UnstyledButton className={classes.itemButton} onClick={read(item.id)}>
              <ItemContent item={item} />
            </UnstyledButton>
          ) : (
            <Group
              justify="space-between"
              align="flex-start"
              gap="sm"
              wrap="wrap"
              className={classes.itemBody}
            >
              <ItemContent item={item} />
              {variant === 'full' && !item.read ? (
                <Button
                  size="xs"
                  variant="default"
                  onClick={read(item.id)}
                  disabled={busy}
                  aria-label={`Mark "${item.title}" as read`}
                >
                  Mark as read
                </Button>
              ) : null}
            </Group>
          )}
        </li>
      ))}
    </Box>
  );
}

function ItemContent({ item }: { item: Notification }) {
  return (
    <Stack gap={2} className={classes.content}>
      <Group gap={8} wrap="nowrap" align="center">
        {!item.read ? <span className={classes.dot} aria-hidden /> : null}
        <Text size="sm" fw={item.read ? 500 : 700} className={classes.title}>
          {!item.read ? <VisuallyHidden>Unread: </VisuallyHidden> : null}
          {item.title}
        </Text>
      </Group>
      <Text size="sm" className={classes.body}>
        {item.body}
      </Text>
      <Text size="xs" c="dimmed">
        <time dateTime={item.created_at} title={formatDateTime(item.created_at)}>
          {timeAgo(item.created_at)}
        </time>
      </Text>
    </Stack>
  );
}
