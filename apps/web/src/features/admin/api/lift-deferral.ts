import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { DeferralSchema, type Deferral } from '@bloodbank/shared/donation-lifecycle';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/** POST /api/admin/deferrals/:id/lift: the donor may book again (a reason is required, and audited). */
export function liftDeferral(id: number, reason: string): Promise<Deferral> {
  return apiRequest(`/admin/deferrals/${id}/lift`, {
    method: 'POST',
    body: { json: { reason } },
    schema: DeferralSchema,
  });
}

export function useLiftDeferral() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => liftDeferral(id, reason),
    onSuccess: () => invalidateAdmin(queryClient, ['deferrals', 'donors', 'audit']),
  });
}
