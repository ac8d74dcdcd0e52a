import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { DiscardResultSchema, type DiscardResult, type DiscardUnits } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/** POST /api/admin/units/discard: chosen units, a count of a group with a reason, or every expired unit. */
export function discardUnits(input: DiscardUnits): Promise<DiscardResult> {
  return apiRequest('/admin/units/discard', {
    method: 'POST',
    body: { json: input },
    schema: DiscardResultSchema,
  });
}

export function useDiscardUnits() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: discardUnits,
    onSuccess: () => invalidateAdmin(queryClient, ['units', 'dashboard', 'audit']),
  });
}
