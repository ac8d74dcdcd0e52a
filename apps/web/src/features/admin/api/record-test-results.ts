import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import {
  TestResultsOutcomeSchema,
  type TestResultsInput,
  type TestResultsOutcome,
} from '@bloodbank/shared/donation-lifecycle';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin, invalidateAdminOnConflict, type AdminScope } from './query-keys';

/**
 * POST /api/admin/donations/:id/results: all negative releases the units; any reactive discards
 * them, defers the donor and holds their other recent units (lookback). 409 unless collected.
 */
export function recordTestResults(id: number, results: TestResultsInput): Promise<TestResultsOutcome> {
  return apiRequest(`/admin/donations/${id}/results`, {
    method: 'POST',
    body: { json: results },
    schema: TestResultsOutcomeSchema,
  });
}

// A reactive result defers the donor, which cancels a booking they hold (a site's day list).
const CHANGED: AdminScope[] = ['donations', 'dashboard', 'units', 'donors', 'deferrals', 'siteDays', 'audit'];

export function useRecordTestResults() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: ({ id, results }: { id: number; results: TestResultsInput }) =>
      recordTestResults(id, results),
    onSuccess: () => invalidateAdmin(queryClient, CHANGED),
    // Recorded meanwhile by someone else: the donation must leave "Awaiting test results" here too.
    onError: (error) => invalidateAdminOnConflict(queryClient, error, CHANGED),
  });
}
