import { Button, Container, Paper, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PageHeader } from '@/components/ui/page-header';
import { PageLoader } from '@/components/ui/page-loader';
import { errorMessage } from '@/lib/api-client';
import { pluralize } from '@/lib/format';
import { useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { NotificationItems } from '../components/notification-items';

/** Every notification of the signed-in user (the latest 50), newest first (PRODUCT.md 3.8). */
export function NotificationsScreen() {
  useDocumentTitle('Notifications · Blood Bank');
  const notifications = useNotifications();
  const markRead = useMarkNotificationsRead();
  const unread = notifications.data?.unread ?? 0;

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
          items={notifications.data.items}
          variant="full"
          busy={markRead.isPending}
          onRead={(id) => markRead.mutate({ ids: [id] })}
        />
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
            onClick={() => markRead.mutate({ all: true })}
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
