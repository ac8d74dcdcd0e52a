import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CalloutSchema, type Callout } from '@bloodbank/shared/notifications';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

const CalloutListSchema = z.array(CalloutSchema);

/** GET /api/admin/callouts: the latest call-outs, newest first, with who was told and who booked. */
export function getCallouts(signal?: AbortSignal): Promise<Callout[]> {
  return apiRequest('/admin/callouts', { schema: CalloutListSchema, signal });
}

export function calloutsQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.list('callouts', {}),
    queryFn: ({ signal }) => getCallouts(signal),
  });
}

export function useCallouts() {
  return useQuery(calloutsQueryOptions());
}
