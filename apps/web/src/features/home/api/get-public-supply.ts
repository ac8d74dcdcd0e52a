import { queryOptions, useQuery } from '@tanstack/react-query';
import { PublicSupplySchema, type PublicSupply } from '@bloodbank/shared/supply';
import { apiRequest } from '@/lib/api-client';

/** GET /api/public/supply: each group's red-cell supply as a level, never a count (public). */
export function getPublicSupply(signal?: AbortSignal): Promise<PublicSupply> {
  return apiRequest('/public/supply', { schema: PublicSupplySchema, auth: false, signal });
}

export function publicSupplyQueryOptions() {
  return queryOptions({
    queryKey: ['public-supply'],
    queryFn: ({ signal }) => getPublicSupply(signal),
    staleTime: 60_000,
  });
}

export function usePublicSupply() {
  return useQuery(publicSupplyQueryOptions());
}
