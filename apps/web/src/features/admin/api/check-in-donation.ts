import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { AdminDonationSchema, type AdminDonation } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin, invalidateAdminOnConflict, type AdminScope } from './query-keys';

/**
 * POST /api/admin/donations/:id/check-in: the donor has arrived for a booking of today; 409 on
 * another day (SITE_MESSAGES.checkInDay) or unless the booking is pending.
 */
export function checkInDonation(id: number): Promise<AdminDonation> {
  return apiRequest(`/admin/donations/${id}/check-in`, { method: 'POST', schema: AdminDonationSchema });
}

const CHANGED: AdminScope[] = ['siteDays', 'donations', 'dashboard', 'audit'];

export function useCheckInDonation() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: checkInDonation,
    onSuccess: () => invalidateAdmin(queryClient, CHANGED),
    // Checked in (or collected) meanwhile by someone else: the day list must stop offering it.
    onError: (error) => invalidateAdminOnConflict(queryClient, error, CHANGED),
  });
}
