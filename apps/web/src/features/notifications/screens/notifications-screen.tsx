import { useRef, useState } from 'react';
import { Button, Container, Group, Paper, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PageHeader } from '@/components/ui/page-header';
import { PageLoader } from '@/components/ui/page-loader';
import { errorMessage } from '@/lib/api-client';
import { pluralize } from '@/lib/format';
import { focusWhenDrawn } from '@/lib/use-shown-in-steps';
import type { Notification, NotificationList } from '@bloodbank/shared/notifications';
import { getNotifications, useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { NotificationItems } from '../components/notification-items';

/**
 * Every notification of the signed-in user, newest first (PRODUCT.md 3.8): the latest 50, and the
 * older ones 50 at a time on "Show older notifications".
 */
export function NotificationsScreen() {
  useDocumentTitle('Notifications · Blood Bank');
  const notifications = useNotifications();
  const markRead = useMarkNotificationsRead();
  const unread = notifications.data?.unread ?? 0;
  const shown = useNotificationPages(notifications.data);
  const readOne = (id: number) => markRead.mutate({ ids: [id] }, { onSuccess: () => shown.markRead([id]) });
  const countRef = useRef<HTMLParagraphElement>(null);
  const readAll = () => {
    // The button is disabled once all are read; focus goes to the count, which then says so.
    countRef.current?.focus();
    markRead.mutate({ all: true }, { onSuccess: () => shown.markRead('all') });
  };

  let body;
  if (notifications.isPending) {
    body = <PageLoader label="Loading your notifications" />;
  } else if (notifications.isError && !notifications.data) {
    body = (
      <ErrorAlert
        message={errorMessage(
          notifications.error,
          'Your notifications could not be loaded. Please try again.',
        )}
        onRetry={() => void notifications.refetch()}
        retrying={notifications.isFetching}
      />
    );
  } else if (notifications.data.items.length === 0) {
    body = (
      <Paper withBorder radius="md">
        <EmptyState
          title="No notifications yet"
          description="When a booking is confirmed, a donation is tested or a request is decided, you will find the message here."
          icon={<IconBellOff size={28} />}
        />
      </Paper>
    );
  } else {
    body = (
      <Stack gap="sm">
        {markRead.isError ? (
          <ErrorAlert
            message={errorMessage(
              markRead.error,
              'The notifications could not be marked read. Please try again.',
            )}
          />
        ) : null}
        <NotificationItems items={shown.items} variant="full" busy={markRead.isPending} onRead={readOne} />
        {shown.error ? <ErrorAlert message={shown.error} /> : null}
        {shown.more ? (
          <Group justify="center">
            <Button variant="default" onClick={shown.load} loading={shown.loading}>
              Show older notifications
            </Button>
          </Group>
        ) : null}
      </Stack>
    );
  }

  return (
    <Container size="md" py="xl">
      <PageHeader
        title="Notifications"
        description={
          <Text span inherit role="status" ref={countRef} tabIndex={-1}>
            {notifications.data
              ? unread > 0
                ? `${pluralize(unread, 'unread notification')}, newest first.`
                : 'You are all caught up. Newest first.'
              : 'Messages about your donations, requests and account.'}
          </Text>
        }
        actions={
          <Button
            variant="default"
            leftSection={<IconChecks size={16} aria-hidden />}
            onClick={readAll}
            disabled={unread === 0 || markRead.isPending}
          >
            Mark all as read
          </Button>
        }
      />
      {body}
    </Container>
  );
}

/**
 * The list the page shows: the latest page (the polled query the bell shares) and, once older ones
 * are asked for, every one shown so far. New notifications push the latest page's last ones out
 * of it; those stay kept here, so none drops out of sight between the two. Newest first, each
 * once, read as the latest answer says (all of them once it says nothing is unread).
 */
function useNotificationPages(latest: NotificationList | undefined) {
  const [kept, setKept] = useState<Notification[]>([]);
  const [more, setMore] = useState<boolean | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const byId = new Map<number, Notification>();
  for (const item of kept) byId.set(item.id, item);
  for (const item of latest?.items ?? []) byId.set(item.id, item);
  const allRead = latest?.unread === 0;
  const items = [...byId.values()]
    .sort((a, b) => b.id - a.id)
    .map((item) => (allRead && !item.read ? { ...item, read: true } : item));

  const load = () => {
    const oldest = items.at(-1);
    if (loading || !oldest) return;
    setLoading(true);
    setError(null);
    getNotifications(undefined, oldest.id)
      .then((page) => {
        setKept([...items, ...page.items]);
        setMore(page.more);
        const first = page.items[0];
        if (first) focusWhenDrawn(`[data-notification-id="${first.id}"]`);
      })
      .catch((failure: unknown) =>
        setError(errorMessage(failure, 'The older notifications could not be loaded. Please try again.')),
      )
      .finally(() => setLoading(false));
  };
  const markRead = (ids: number[] | 'all') =>
    setKept((shown) =>
      shown.map((item) => (ids === 'all' || ids.includes(item.id) ? { ...item, read: true } : item)),
    );
  return { items, more: more ?? latest?.more ?? false, loading, error, load, markRead };
}
