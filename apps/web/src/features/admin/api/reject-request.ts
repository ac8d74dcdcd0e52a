import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { AdminRequestSchema, type AdminRequest } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/** POST /api/admin/requests/:id/reject: optional reason, shown to the patient. */
export function rejectRequest(id: number, reason: string): Promise<AdminRequest> {
  const trimmed = reason.trim();
  return apiRequest(`/admin/requests/${id}/reject`, {
    method: 'POST',
    body: { json: trimmed ? { reason: trimmed } : {} },
    schema: AdminRequestSchema,
  });
}

export function useRejectRequest() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => rejectRequest(id, reason),
    onSuccess: () => invalidateAdmin(queryClient, ['requests', 'dashboard', 'audit']),
  });
}
