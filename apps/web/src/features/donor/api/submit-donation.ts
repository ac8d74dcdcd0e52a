import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { DonationSchema, type Donation, type DonationInput } from '@bloodbank/shared/donation';
import { apiRequest } from '@/lib/api-client';
import { madeSince, useSendOnce } from '@/lib/use-send-once';
import { getMyDonations } from './get-my-donations';
import { donorKeys } from './query-keys';

/** POST /api/donations. The server takes the blood group from the account, so none is sent. */
export function submitDonation(donation: DonationInput): Promise<Donation> {
  return apiRequest('/donations', { method: 'POST', body: { json: donation }, schema: DonationSchema });
}

/** The donor's pending booking for this day, site and time, made since `since`: what a lost answer may have booked. */
export async function findBooking(donation: DonationInput, since: number): Promise<Donation | undefined> {
  const mine = await getMyDonations();
  return mine.find(
    (booked) =>
      booked.status === 'pending' &&
      madeSince(booked.created_at, since) &&
      booked.date === donation.date &&
      booked.unit === donation.unit &&
      (booked.appointment?.site_id ?? null) === (donation.site_id ?? null) &&
      (booked.appointment?.time ?? null) === (donation.slot ?? null),
  );
}

/**
 * Books once, even over a connection that drops (lib/use-send-once.ts): after a lost answer the
 * donor sees their booking confirmed, with its calendar file, instead of "Not yet: you already
 * have a donation awaiting approval" for a booking they were never shown.
 */
export function useSubmitDonation() {
  const queryClient = useQueryClient();
  const sendOnce = useSendOnce(submitDonation, findBooking);
  return useWriteMutation({
    mutationFn: sendOnce,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: donorKeys.myDonations }),
        queryClient.invalidateQueries({ queryKey: donorKeys.summary }),
        // A booking takes a place in its slot; a cancellation frees it.
        queryClient.invalidateQueries({ queryKey: donorKeys.sites }),
      ]),
  });
}
