import {
  AffectedBookingsSchema,
  type AffectedBookings,
  type SiteCalendarChange,
} from '@bloodbank/shared/sites';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/admin/sites/:id/affected-bookings: the bookings that saving these hours and closed dates
 * would cancel (decision 0017), asked before the save so staff can confirm it. Changes nothing.
 */
export function fetchAffectedBookings(siteId: number, change: SiteCalendarChange): Promise<AffectedBookings> {
  return apiRequest(`/admin/sites/${siteId}/affected-bookings`, {
    method: 'POST',
    body: { json: change },
    schema: AffectedBookingsSchema,
  });
}
