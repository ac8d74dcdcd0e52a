import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { SiteSchema, type Site } from '@bloodbank/shared/sites';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

const SiteListSchema = z.array(SiteSchema);

/** GET /api/admin/sites: every donation site, the active ones first (PRODUCT.md 3.6). */
export function getSites(signal?: AbortSignal): Promise<Site[]> {
  return apiRequest('/admin/sites', { schema: SiteListSchema, signal });
}

export function sitesQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.list('sites', {}),
    queryFn: ({ signal }) => getSites(signal),
  });
}

export function useSites() {
  return useQuery(sitesQueryOptions());
}
