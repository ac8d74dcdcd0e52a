import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { DonationSchema, type Donation } from '@bloodbank/shared/donation';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

/** POST /api/donations/:id/cancel: the donor cancels their own pending booking; 409 unless pending. */
export function cancelDonation(id: number): Promise<Donation> {
  return apiRequest(`/donations/${id}/cancel`, { method: 'POST', schema: DonationSchema });
}

export function useCancelDonation() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: cancelDonation,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: donorKeys.myDonations }),
        queryClient.invalidateQueries({ queryKey: donorKeys.summary }),
        // A booking takes a place in its slot; a cancellation frees it.
        queryClient.invalidateQueries({ queryKey: donorKeys.sites }),
      ]),
  });
}
