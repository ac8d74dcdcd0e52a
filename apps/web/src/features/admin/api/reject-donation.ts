import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { AdminDonationSchema, type AdminDonation } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin, invalidateAdminOnConflict, type AdminScope } from './query-keys';

/** POST /api/admin/donations/:id/reject: optional reason, shown to the donor; the game reward is reversed. */
export function rejectDonation(id: number, reason: string): Promise<AdminDonation> {
  const trimmed = reason.trim();
  return apiRequest(`/admin/donations/${id}/reject`, {
    method: 'POST',
    body: { json: trimmed ? { reason: trimmed } : {} },
    schema: AdminDonationSchema,
  });
}

const CHANGED: AdminScope[] = ['donations', 'siteDays', 'dashboard', 'donors', 'audit'];

export function useRejectDonation() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => rejectDonation(id, reason),
    onSuccess: () => invalidateAdmin(queryClient, CHANGED),
    // Decided meanwhile by someone else: the lists must stop offering the booking.
    onError: (error) => invalidateAdminOnConflict(queryClient, error, CHANGED),
  });
}
