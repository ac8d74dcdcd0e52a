import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { SiteDaySchema, type SiteDay } from '@bloodbank/shared/sites';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

/**
 * GET /api/admin/sites/:id/day?date=: the site's bookings of one day, earliest first, with the
 * counts per state (cancelled and rejected bookings freed their place and are left out).
 */
export function getSiteDay(siteId: number, date: string, signal?: AbortSignal): Promise<SiteDay> {
  return apiRequest(`/admin/sites/${siteId}/day`, { schema: SiteDaySchema, query: { date }, signal });
}

export function siteDayQueryOptions(siteId: number, date: string) {
  return queryOptions({
    queryKey: adminKeys.list('siteDays', { siteId, date }),
    queryFn: ({ signal }) => getSiteDay(siteId, date, signal),
    placeholderData: keepPreviousData,
  });
}

/** Waits for a site and a valid date (null until both are chosen). */
export function useSiteDay(siteId: number | null, date: string | null) {
  return useQuery({
    ...siteDayQueryOptions(siteId ?? 0, date ?? ''),
    enabled: siteId !== null && date !== null,
  });
}
