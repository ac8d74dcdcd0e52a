import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { ReceiveUnitsResultSchema, type ReceiveUnitsResult } from '@bloodbank/shared/admin';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { Component } from '@bloodbank/shared/components';
import { apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

export interface ReceiveUnitsInput {
  bloodgroup: BloodGroup;
  /** Red cells unless chosen; each component has its own shelf life. */
  component: Component;
  count: number;
  collected_on: string;
}

/** POST /api/admin/units: units received by hand; they expire after their component's shelf life. */
export function receiveUnits(input: ReceiveUnitsInput): Promise<ReceiveUnitsResult> {
  return apiRequest('/admin/units', {
    method: 'POST',
    body: { json: input },
    schema: ReceiveUnitsResultSchema,
  });
}

export function useReceiveUnits() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: receiveUnits,
    onSuccess: () => invalidateAdmin(queryClient, ['units', 'dashboard', 'audit']),
  });
}
