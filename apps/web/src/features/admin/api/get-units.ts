import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { BloodUnitSchema, pagedSchema, type UnitsQuery } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

const PagedUnitsSchema = pagedSchema(BloodUnitSchema);

/** GET /api/admin/units: units by group and status ("expired" = available on paper, past expiry). */
export function getUnits(query: UnitsQuery, signal?: AbortSignal) {
  return apiRequest('/admin/units', { schema: PagedUnitsSchema, query, signal });
}

export function unitsQueryOptions(query: UnitsQuery) {
  return queryOptions({
    queryKey: adminKeys.list('units', query),
    queryFn: ({ signal }) => getUnits(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUnits(query: UnitsQuery) {
  return useQuery(unitsQueryOptions(query));
}
