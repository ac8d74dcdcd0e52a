import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import {
  NewDeferralResultSchema,
  type NewDeferralInput,
  type NewDeferralResult,
} from '@bloodbank/shared/donation-lifecycle';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/**
 * POST /api/admin/donors/:id/deferrals: a temporary (until a date) or permanent deferral, by hand;
 * the answer names the booking it cancelled, if any.
 */
export function addDeferral(donorId: number, deferral: NewDeferralInput): Promise<NewDeferralResult> {
  return apiRequest(`/admin/donors/${donorId}/deferrals`, {
    method: 'POST',
    body: { json: deferral },
    schema: NewDeferralResultSchema,
  });
}

export function useAddDeferral(donorId: number) {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: (deferral: NewDeferralInput) => addDeferral(donorId, deferral),
    // A deferral cancels the donor's booking on a day it covers: the donation lists, the day lists and the dashboard's counts change.
    onSuccess: () =>
      invalidateAdmin(queryClient, ['deferrals', 'donors', 'audit', 'donations', 'siteDays', 'dashboard']),
  });
}
