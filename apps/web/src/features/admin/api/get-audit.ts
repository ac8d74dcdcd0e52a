import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AuditEntrySchema, pagedSchema, type AuditQuery } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

const PagedAuditSchema = pagedSchema(AuditEntrySchema);
export type AuditListQuery = Pick<AuditQuery, 'page' | 'pageSize' | 'entity' | 'actor' | 'from' | 'to'>;

/** GET /api/admin/audit: every admin change, newest first. */
export function getAudit(query: AuditListQuery, signal?: AbortSignal) {
  return apiRequest('/admin/audit', { schema: PagedAuditSchema, query, signal });
}

export function auditQueryOptions(query: AuditListQuery) {
  return queryOptions({
    queryKey: adminKeys.list('audit', query),
    queryFn: ({ signal }) => getAudit(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAudit(query: AuditListQuery) {
  return useQuery(auditQueryOptions(query));
}
