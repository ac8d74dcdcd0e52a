import { queryOptions, useQuery } from '@tanstack/react-query';
import { DonorSummarySchema, type DonorSummary } from '@bloodbank/shared/donation';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

/** GET /api/donor/summary: counters, next eligible date (and why not today) and the activity feed. */
export function getDonorSummary(signal?: AbortSignal): Promise<DonorSummary> {
  return apiRequest('/donor/summary', { schema: DonorSummarySchema, signal });
}

export function donorSummaryQueryOptions() {
  return queryOptions({
    queryKey: donorKeys.summary,
    queryFn: ({ signal }) => getDonorSummary(signal),
  });
}

export function useDonorSummary() {
  return useQuery(donorSummaryQueryOptions());
}
