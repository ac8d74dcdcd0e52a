import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AdminRequestSchema, pagedSchema, type AdminRequestsQuery } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

const PagedRequestsSchema = pagedSchema(AdminRequestSchema);
export type RequestsListQuery = Pick<AdminRequestsQuery, 'page' | 'pageSize' | 'status' | 'patient_id'>;

/** GET /api/admin/requests: with patient names, pending first (needed soonest first), then the newest. */
export function getRequests(query: RequestsListQuery, signal?: AbortSignal) {
  return apiRequest('/admin/requests', { schema: PagedRequestsSchema, query, signal });
}

export function requestsQueryOptions(query: RequestsListQuery) {
  return queryOptions({
    queryKey: adminKeys.list('requests', query),
    queryFn: ({ signal }) => getRequests(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useRequests(query: RequestsListQuery) {
  return useQuery(requestsQueryOptions(query));
}
