import { useState } from 'react';
import { Button, Container, Group, Paper, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PageHeader } from '@/components/ui/page-header';
import { PageLoader } from '@/components/ui/page-loader';
import { errorMessage } from '@/lib/api-client';
import { pluralize } from '@/lib/format';
import type { Notification } from '@bloodbank/shared/notifications';
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
  const older = useOlderNotifications(notifications.data);
  const readOne = (id: number) => markRead.mutate({ ids: [id] }, { onSuccess: () => older.markRead([id]) });
  const readAll = () => markRead.mutate({ all: true }, { onSuccess: () => older.markRead('all') });

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
        <NotificationItems
          items={[...notifications.data.items, ...older.items]}
          variant="full"
          busy={markRead.isPending}
          onRead={readOne}
        />
        {older.error ? <ErrorAlert message={older.error} /> : null}
        {older.more ? (
          <Group justify="center">
            <Button variant="default" onClick={older.load} loading={older.loading}>
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
          <Text span inherit role="status">
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
 * The notifications older than the latest page, loaded 50 at a time after the last one shown. The
 * latest page is the polled query the bell shares; these are the page's own, marked read with it.
 */
function useOlderNotifications(latest: { items: Notification[]; more: boolean } | undefined) {
  const [items, setItems] = useState<Notification[]>([]);
  const [more, setMore] = useState<boolean | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const last = items.at(-1) ?? latest?.items.at(-1);
  const load = () => {
    if (loading || !last) return;
    setLoading(true);
    setError(null);
    getNotifications(undefined, last.id)
      .then((page) => {
        // Skips any the latest page came to show meanwhile (it moves as new ones arrive).
        setItems((shown) => [
          ...shown,
          ...page.items.filter((item) => !shown.some((old) => old.id === item.id)),
        ]);
        setMore(page.more);
      })
      .catch((failure: unknown) =>
        setError(errorMessage(failure, 'The older notifications could not be loaded. Please try again.')),
      )
      .finally(() => setLoading(false));
  };
  const markRead = (ids: number[] | 'all') =>
    setItems((shown) =>
      shown.map((item) => (ids === 'all' || ids.includes(item.id) ? { ...item, read: true } : item)),
    );
  return { items, more: more ?? latest?.more ?? false, loading, error, load, markRead };
}
