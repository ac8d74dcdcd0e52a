import { queryOptions, useQuery } from '@tanstack/react-query';
import { ScreeningThresholdsSchema, type ScreeningThresholds } from '@bloodbank/shared/donation-lifecycle';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

/** GET /api/admin/screening-thresholds: what a donor must meet at collection (configurable on the server). */
export function getScreeningThresholds(signal?: AbortSignal): Promise<ScreeningThresholds> {
  return apiRequest('/admin/screening-thresholds', { schema: ScreeningThresholdsSchema, signal });
}

export function screeningThresholdsQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.scope('thresholds'),
    queryFn: ({ signal }) => getScreeningThresholds(signal),
    // Set by the server's configuration: it changes only with a restart.
    staleTime: 10 * 60_000,
  });
}

export function useScreeningThresholds() {
  return useQuery(screeningThresholdsQueryOptions());
}
