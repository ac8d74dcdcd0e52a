import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { DonationSchema, type Donation, type DonationInput } from '@bloodbank/shared/donation';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

/** POST /api/donations. The server takes the blood group from the account, so none is sent. */
export function submitDonation(donation: DonationInput): Promise<Donation> {
  return apiRequest('/donations', { method: 'POST', body: { json: donation }, schema: DonationSchema });
}

export function useSubmitDonation() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: submitDonation,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: donorKeys.myDonations }),
        queryClient.invalidateQueries({ queryKey: donorKeys.summary }),
        // A booking takes a place in its slot; a cancellation frees it.
        queryClient.invalidateQueries({ queryKey: donorKeys.sites }),
      ]),
  });
}
