import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { SlotSchema, type Slot } from '@bloodbank/shared/sites';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

const SlotListSchema = z.array(SlotSchema);

/**
 * GET /api/sites/:id/slots?date=: every slot of that day with the places left (0 when full); empty
 * when the site is closed that day. Slots of today that already began are left out.
 */
export function getSlots(siteId: number, date: string, signal?: AbortSignal): Promise<Slot[]> {
  return apiRequest(`/sites/${siteId}/slots`, { schema: SlotListSchema, query: { date }, signal });
}

export function slotsQueryOptions(siteId: number, date: string) {
  return queryOptions({
    queryKey: donorKeys.slots(siteId, date),
    queryFn: ({ signal }) => getSlots(siteId, date, signal),
    // Places change by the minute: a list is never shown again once nobody looks at it (the next
    // form or Move Booking dialog waits for a fresh one rather than offering a taken time).
    gcTime: 0,
  });
}

/** Asks once a site and a bookable date are chosen (null until then). */
export function useSlots(siteId: number | null, date: string | null) {
  return useQuery({
    ...slotsQueryOptions(siteId ?? 0, date ?? ''),
    enabled: siteId !== null && date !== null,
  });
}
