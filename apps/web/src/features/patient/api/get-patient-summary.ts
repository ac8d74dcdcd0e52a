import { queryOptions, useQuery } from '@tanstack/react-query';
import { PatientSummarySchema, type PatientSummary } from '@bloodbank/shared/blood-request';
import { apiRequest } from '@/lib/api-client';

/** GET /api/patient/summary: the dashboard's four counters. */
export function getPatientSummary(signal?: AbortSignal): Promise<PatientSummary> {
  return apiRequest('/patient/summary', { schema: PatientSummarySchema, signal });
}

export const patientSummaryQueryKey = ['patient', 'summary'] as const;

export function patientSummaryQueryOptions() {
  return queryOptions({
    queryKey: patientSummaryQueryKey,
    queryFn: ({ signal }) => getPatientSummary(signal),
  });
}

export function usePatientSummary() {
  return useQuery(patientSummaryQueryOptions());
}
