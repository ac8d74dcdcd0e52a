import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import type { MarkRead, NotificationList } from '@bloodbank/shared/notifications';
import { apiRequest } from '@/lib/api-client';
import { notificationKeys } from './query-keys';

/** POST /api/notifications/read: some (`{ids}`) or all (`{all: true}`) of one's notifications; 204. */
export function markNotificationsRead(body: MarkRead): Promise<void> {
  return apiRequest('/notifications/read', { method: 'POST', body: { json: body } });
}

/** The list as it reads once `body` is marked read. */
function markedRead(list: NotificationList, body: MarkRead): NotificationList {
  const ids = 'all' in body ? null : new Set(body.ids);
  let newlyRead = 0;
  const items = list.items.map((item) => {
    if (item.read || (ids !== null && !ids.has(item.id))) return item;
    newlyRead += 1;
    return { ...item, read: true };
  });
  // "All" also covers unread ones older than the listed fifty.
  const unread = ids === null ? 0 : Math.max(0, list.unread - newlyRead);
  return { ...list, items, unread };
}

/** The key every mark-read mutation carries, so a change elsewhere can tell them apart. */
export const markReadMutationKey = [...notificationKeys.all, 'mark-read'] as const;

/**
 * Marks notifications read at once on screen (the badge drops without waiting), puts the list back
 * if the server refuses, and asks for the list again either way.
 */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  const key = notificationKeys.list();
  return useWriteMutation({
    mutationKey: markReadMutationKey,
    mutationFn: markNotificationsRead,
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<NotificationList>(key);
      if (before) queryClient.setQueryData<NotificationList>(key, markedRead(before, body));
      return { before };
    },
    onError: (_error, _body, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
