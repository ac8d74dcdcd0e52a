import { useWriteMutation } from '@/lib/use-write-mutation';
import { z } from 'zod';
import type { PasswordResetRequest } from '@bloodbank/shared/notifications';
import { apiRequest } from '@/lib/api-client';

const AcceptedSchema = z.object({ detail: z.string() });

/**
 * POST /api/auth/password-reset: `{username}` or `{email}`. 202 with the same `detail` whether or
 * not the account exists; 429 when this address asked too often.
 */
export function requestPasswordReset(body: PasswordResetRequest): Promise<{ detail: string }> {
  return apiRequest('/auth/password-reset', {
    method: 'POST',
    body: { json: body },
    schema: AcceptedSchema,
    auth: false,
  });
}

export function useRequestPasswordReset() {
  return useWriteMutation({ mutationFn: requestPasswordReset });
}
