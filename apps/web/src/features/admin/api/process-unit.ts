import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import {
  ProcessUnitResultSchema,
  type ProcessUnitInput,
  type ProcessUnitResult,
} from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/**
 * POST /api/admin/units/:id/process: a whole-blood unit (quarantined or available, not expired) is
 * separated into the chosen components, platelets on the day of collection only; 409 otherwise.
 */
export function processUnit({
  id,
  components,
}: { id: number } & ProcessUnitInput): Promise<ProcessUnitResult> {
  return apiRequest(`/admin/units/${id}/process`, {
    method: 'POST',
    body: { json: { components } },
    schema: ProcessUnitResultSchema,
  });
}

export function useProcessUnit() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: processUnit,
    onSuccess: () => invalidateAdmin(queryClient, ['units', 'dashboard', 'audit']),
  });
}
