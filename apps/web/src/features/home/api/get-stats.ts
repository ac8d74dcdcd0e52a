import { queryOptions, useQuery } from '@tanstack/react-query';
import { StatsSchema, type Stats } from '@bloodbank/shared/stats';
import { apiRequest } from '@/lib/api-client';

/** GET /api/stats: live headline figures (public). */
export function getStats(signal?: AbortSignal): Promise<Stats> {
  return apiRequest('/stats', { schema: StatsSchema, auth: false, signal });
}

export function statsQueryOptions() {
  return queryOptions({
    queryKey: ['stats'],
    queryFn: ({ signal }) => getStats(signal),
    staleTime: 60_000,
  });
}

export function useStats() {
  return useQuery(statsQueryOptions());
}
