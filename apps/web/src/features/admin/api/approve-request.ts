import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import {
  AdminRequestSchema,
  InsufficientStockSchema,
  type AdminRequest,
  type InsufficientStock,
} from '@bloodbank/shared/admin';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { ApiError, apiRequest } from '@/lib/api-client';
import { invalidateAdmin } from './query-keys';

/**
 * POST /api/admin/requests/:id/approve: issues units first-expiring-first from the requested group,
 * or from `bloodgroup` (a compatible group) when given.
 */
export function approveRequest(id: number, bloodgroup?: BloodGroup): Promise<AdminRequest> {
  return apiRequest(`/admin/requests/${id}/approve`, {
    method: 'POST',
    body: { json: bloodgroup ? { bloodgroup } : {} },
    schema: AdminRequestSchema,
  });
}

/** The 409 body when the group lacks stock: the available count and the compatible groups that can cover it. */
export function insufficientStockOf(error: unknown): InsufficientStock | null {
  if (!(error instanceof ApiError) || error.status !== 409 || error.code !== 'insufficient_stock')
    return null;
  const parsed = InsufficientStockSchema.safeParse(error.body);
  return parsed.success ? parsed.data : null;
}

export function useApproveRequest() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: ({ id, bloodgroup }: { id: number; bloodgroup?: BloodGroup }) =>
      approveRequest(id, bloodgroup),
    // Stock changes on approval; on a 409 nothing changed, but the list may be stale (another admin).
    onSettled: (_data, error) =>
      insufficientStockOf(error)
        ? undefined
        : invalidateAdmin(queryClient, ['requests', 'units', 'dashboard', 'audit']),
  });
}
