import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { CalloutResultSchema, type NewCallout } from '@bloodbank/shared/notifications';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/** POST /api/admin/callouts: tells the eligible, opted-in donors who can give to the group; 201 `{id, notified}`. */
export function sendCallout(body: NewCallout): Promise<{ id: number; notified: number }> {
  return apiRequest('/admin/callouts', { method: 'POST', body: { json: body }, schema: CalloutResultSchema });
}

export function useSendCallout() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: sendCallout,
    onSuccess: () => invalidateAdmin(queryClient, ['callouts', 'audit']),
  });
}
