import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { PublicSiteSchema, type PublicSite } from '@bloodbank/shared/sites';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

const SiteListSchema = z.array(PublicSiteSchema);

export const SITES_RETRY_MS = 10_000;

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
    // A list that could not be loaded is asked for again by itself, so the form comes back when
    // the connection or the server does.
    refetchInterval: (query) => (query.state.status === 'error' ? SITES_RETRY_MS : false),
  });
}

export function useSites() {
  return useQuery(sitesQueryOptions());
}
