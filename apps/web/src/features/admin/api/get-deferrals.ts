import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { DeferralSchema, type Deferral } from '@bloodbank/shared/donation-lifecycle';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

const DeferralListSchema = z.array(DeferralSchema);

/** GET /api/admin/donors/:id/deferrals: the donor's deferrals, newest first, lifted ones included. */
export function getDeferrals(donorId: number, signal?: AbortSignal): Promise<Deferral[]> {
  return apiRequest(`/admin/donors/${donorId}/deferrals`, { schema: DeferralListSchema, signal });
}

export function deferralsQueryOptions(donorId: number) {
  return queryOptions({
    queryKey: adminKeys.list('deferrals', { donorId }),
    queryFn: ({ signal }) => getDeferrals(donorId, signal),
  });
}

export function useDeferrals(donorId: number) {
  return useQuery(deferralsQueryOptions(donorId));
}
