import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import {
  CollectionResultSchema,
  type CollectionInput,
  type CollectionResult,
} from '@bloodbank/shared/donation-lifecycle';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin, invalidateAdminOnConflict, type AdminScope } from './query-keys';

/**
 * POST /api/admin/donations/:id/collect: the screening measurements. The donor passes (the units
 * go into quarantine, in testing) or is deferred; 409 before the booked date or unless pending.
 */
export function collectDonation(id: number, values: CollectionInput): Promise<CollectionResult> {
  return apiRequest(`/admin/donations/${id}/collect`, {
    method: 'POST',
    body: { json: values },
    schema: CollectionResultSchema,
  });
}

const CHANGED: AdminScope[] = ['donations', 'siteDays', 'dashboard', 'units', 'donors', 'audit'];

export function useCollectDonation() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: ({ id, values }: { id: number; values: CollectionInput }) => collectDonation(id, values),
    onSuccess: () => invalidateAdmin(queryClient, CHANGED),
    // Collected (or no longer pending) meanwhile: the lists must stop offering the collection.
    onError: (error) => invalidateAdminOnConflict(queryClient, error, CHANGED),
  });
}
