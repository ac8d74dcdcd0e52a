import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { DonationSchema, type Donation, type RescheduleInput } from '@bloodbank/shared/donation';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

/**
 * POST /api/donations/:id/reschedule: moves the donor's pending booking to another date (and site
 * and slot, when sites exist); 409 when the slot filled meanwhile or the booking is no longer pending.
 */
export function rescheduleDonation(id: number, move: RescheduleInput): Promise<Donation> {
  return apiRequest(`/donations/${id}/reschedule`, {
    method: 'POST',
    body: { json: move },
    schema: DonationSchema,
  });
}

export function useRescheduleDonation() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: ({ id, move }: { id: number; move: RescheduleInput }) => rescheduleDonation(id, move),
    // The old slot frees a place and the new one takes one.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: donorKeys.myDonations }),
        queryClient.invalidateQueries({ queryKey: donorKeys.summary }),
        queryClient.invalidateQueries({ queryKey: donorKeys.sites }),
      ]),
  });
}
