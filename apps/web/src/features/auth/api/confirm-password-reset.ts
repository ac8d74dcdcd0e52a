import { useWriteMutation } from '@/lib/use-write-mutation';
import type { PasswordResetConfirm } from '@bloodbank/shared/notifications';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/auth/password-reset/confirm: the link's token and the new password; 204, or 400 "This
 * reset link is invalid or has expired." The account's sessions end on the server.
 */
export function confirmPasswordReset(body: PasswordResetConfirm): Promise<void> {
  return apiRequest('/auth/password-reset/confirm', { method: 'POST', body: { json: body }, auth: false });
}

export function useConfirmPasswordReset() {
  return useWriteMutation({ mutationFn: confirmPasswordReset });
}
