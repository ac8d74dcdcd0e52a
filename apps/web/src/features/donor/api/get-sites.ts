import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { PublicSiteSchema, type PublicSite } from '@bloodbank/shared/sites';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

const SiteListSchema = z.array(PublicSiteSchema);

/**
 * GET /api/sites: the active donation sites (PRODUCT.md 3.6). An empty list means the blood bank
 * has none: a booking is then by date alone, as in the spec.
 */
export function getSites(signal?: AbortSignal): Promise<PublicSite[]> {
  return apiRequest('/sites', { schema: SiteListSchema, signal });
}

export function sitesQueryOptions() {
  return queryOptions({
    queryKey: donorKeys.sites,
    queryFn: ({ signal }) => getSites(signal),
    // Sites change rarely; a booking form opened twice in a minute need not ask again.
    staleTime: 60_000,
  });
}

export function useSites() {
  return useQuery(sitesQueryOptions());
}
