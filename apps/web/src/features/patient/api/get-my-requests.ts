import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { BloodRequestSchema, type BloodRequest } from '@bloodbank/shared/blood-request';
import { apiRequest } from '@/lib/api-client';

/** GET /api/requests/mine: the signed-in patient's requests, newest first. */
export function getMyRequests(signal?: AbortSignal): Promise<BloodRequest[]> {
  return apiRequest('/requests/mine', { schema: z.array(BloodRequestSchema), signal });
}

export const myRequestsQueryKey = ['requests', 'mine'] as const;

export function myRequestsQueryOptions() {
  return queryOptions({
    queryKey: myRequestsQueryKey,
    queryFn: ({ signal }) => getMyRequests(signal),
  });
}

export function useMyRequests() {
  return useQuery(myRequestsQueryOptions());
}
