import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { BloodUnitSchema, type BloodUnit } from '@bloodbank/shared/admin';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/** POST /api/admin/units/:id/release: a unit on a lookback hold becomes available; 409 unless held. */
export function releaseUnit(id: number): Promise<BloodUnit> {
  return apiRequest(`/admin/units/${id}/release`, { method: 'POST', schema: BloodUnitSchema });
}

export function useReleaseUnit() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: releaseUnit,
    onSuccess: () => invalidateAdmin(queryClient, ['units', 'dashboard', 'audit']),
  });
}
