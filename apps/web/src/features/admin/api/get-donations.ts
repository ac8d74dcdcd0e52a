import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AdminDonationSchema, pagedSchema, type AdminDonationsQuery } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

const PagedDonationsSchema = pagedSchema(AdminDonationSchema);
export type DonationsListQuery = Pick<AdminDonationsQuery, 'page' | 'pageSize' | 'status' | 'donor_id'> & {
  /** 'true': only bookings due on or before today; 'false': only later ones. */
  due?: 'true' | 'false';
};

/**
 * GET /api/admin/donations: with donor names. Bookings come earliest date first, collected donations
 * oldest collection first, the rest newest first.
 */
export function getDonations(query: DonationsListQuery, signal?: AbortSignal) {
  return apiRequest('/admin/donations', { schema: PagedDonationsSchema, query, signal });
}

export function donationsQueryOptions(query: DonationsListQuery) {
  return queryOptions({
    queryKey: adminKeys.list('donations', query),
    queryFn: ({ signal }) => getDonations(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useDonations(query: DonationsListQuery) {
  return useQuery(donationsQueryOptions(query));
}
