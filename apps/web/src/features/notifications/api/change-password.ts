import { useQueryClient } from '@tanstack/react-query';
import { TokenResponseSchema, type PasswordChange, type TokenResponse } from '@bloodbank/shared/auth';
import { apiRequest, replacingToken } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-context';
import { useWriteMutation } from '@/lib/use-write-mutation';

/** POST /api/users/me/password: the change ends every session, this one included, and answers a new token. */
export function changePassword(change: PasswordChange): Promise<TokenResponse> {
  return apiRequest('/users/me/password', {
    method: 'POST',
    body: { json: change },
    schema: TokenResponseSchema,
  });
}

/** This device goes on signed in with the new token; every other one was signed out. */
export function useChangePassword() {
  const auth = useAuth();
  const queryClient = useQueryClient();
  return useWriteMutation({
    // The new token is stored before the change counts as done: a 401 to the old one meanwhile
    // (the bell's check) then signs nobody out (api-client.ts).
    mutationFn: (change: PasswordChange) =>
      replacingToken(async () => {
        const token = await changePassword(change);
        auth.renewSession(token);
        return token;
      }),
    // Anything refused in between (asked with the ended token) is asked again with the new one.
    onSuccess: () => void queryClient.invalidateQueries(),
  });
}
