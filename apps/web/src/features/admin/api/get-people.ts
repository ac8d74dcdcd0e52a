import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  AdminDonorSchema,
  AdminPatientSchema,
  pagedSchema,
  type AdminDonor,
  type AdminPatient,
  type Paged,
  type PeopleQuery,
} from '@bloodbank/shared/admin';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './query-keys';

/** Manage Donors and Manage Patients share one shape of list; `kind` picks the endpoint. */
export type PersonKind = 'donors' | 'patients';
export type PersonOf<K extends PersonKind> = K extends 'donors' ? AdminDonor : AdminPatient;

export const personSchemas = { donors: AdminDonorSchema, patients: AdminPatientSchema } as const;
const pagedSchemas = {
  donors: pagedSchema(AdminDonorSchema),
  patients: pagedSchema(AdminPatientSchema),
} as const;

export type PeopleListQuery = Pick<PeopleQuery, 'page' | 'pageSize' | 'sort' | 'order' | 'status'> & {
  search: string;
};

/** GET /api/admin/donors and /api/admin/patients: search (name, username, email, mobile), sort and page. */
export function getPeople<K extends PersonKind>(
  kind: K,
  query: PeopleListQuery,
  signal?: AbortSignal,
): Promise<Paged<PersonOf<K>>> {
  return apiRequest(`/admin/${kind}`, {
    schema: pagedSchemas[kind] as unknown as z.ZodType<Paged<PersonOf<K>>>,
    query: { ...query, search: query.search.trim() || undefined },
    signal,
  });
}

export function peopleQueryOptions<K extends PersonKind>(kind: K, query: PeopleListQuery) {
  return queryOptions({
    queryKey: adminKeys.list(kind, query),
    queryFn: ({ signal }) => getPeople(kind, query, signal),
    placeholderData: keepPreviousData,
  });
}

export function usePeople<K extends PersonKind>(kind: K, query: PeopleListQuery) {
  return useQuery(peopleQueryOptions(kind, query));
}
