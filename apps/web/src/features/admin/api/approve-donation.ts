import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AdminDonationSchema, type AdminDonation } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/** POST /api/admin/donations/:id/approve: the donation's units enter inventory. */
export function approveDonation(id: number): Promise<AdminDonation> {
  return apiRequest(`/admin/donations/${id}/approve`, { method: 'POST', schema: AdminDonationSchema });
}

export function useApproveDonation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveDonation,
    onSuccess: () => invalidateAdmin(queryClient, ['donations', 'units', 'dashboard', 'donors', 'audit']),
  });
}
