import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { DonationSchema, type Donation } from '@bloodbank/shared/donation';
import { ApiError, apiRequest } from '@/lib/api-client';
import { getMyDonations } from './get-my-donations';
import { donorKeys } from './query-keys';

/**
 * POST /api/donations/:id/cancel: the donor cancels their own pending booking; 409 unless pending.
 * A 409 because the booking is cancelled already is what was asked: a cancel sent again after its
 * answer was lost, or cancelled in another tab. It answers with the cancelled booking, so the
 * donor reads "Your booking has been cancelled." instead of an error over a dialog that stays open.
 */
export async function cancelDonation(id: number): Promise<Donation> {
  try {
    return await apiRequest(`/donations/${id}/cancel`, { method: 'POST', schema: DonationSchema });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409 && error.code === 'not_pending')) throw error;
    const cancelled = (await getMyDonations().catch(() => [])).find(
      (donation) => donation.id === id && donation.status === 'cancelled',
    );
    if (!cancelled) throw error;
    return cancelled;
  }
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
