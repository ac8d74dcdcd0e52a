import { queryOptions, useQuery } from '@tanstack/react-query';
import { NotificationListSchema, type NotificationList } from '@bloodbank/shared/notifications';
import { apiRequest } from '@/lib/api-client';
import { notificationKeys } from './query-keys';

/** How often the header's bell asks for news while a page stays open. */
export const NOTIFICATIONS_POLL_MS = 60_000;

/**
 * GET /api/notifications: the latest notifications (or those older than `before`, an id), newest
 * first, how many are unread, and whether older ones exist.
 */
export function getNotifications(signal?: AbortSignal, before?: number): Promise<NotificationList> {
  return apiRequest(before === undefined ? '/notifications' : `/notifications?before=${before}`, {
    schema: NotificationListSchema,
    signal,
  });
}

export function notificationsQueryOptions() {
  return queryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ signal }) => getNotifications(signal),
    // Polled every minute and asked again when the window gets the focus back (PRODUCT.md 3.8).
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
  });
}

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
