import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { DonationSchema, type Donation } from '@bloodbank/shared/donation';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

const DonationListSchema = z.array(DonationSchema);

/** GET /api/donations/mine: the donor's own donations, newest first. */
export function getMyDonations(signal?: AbortSignal): Promise<Donation[]> {
  return apiRequest('/donations/mine', { schema: DonationListSchema, signal });
}

export function myDonationsQueryOptions() {
  return queryOptions({
    queryKey: donorKeys.myDonations,
    queryFn: ({ signal }) => getMyDonations(signal),
  });
}

export function useMyDonations() {
  return useQuery(myDonationsQueryOptions());
}
