import { queryOptions } from '@tanstack/react-query';
import { CurrentUserSchema, type CurrentUser } from '@bloodbank/shared/auth';
import { apiRequest } from '../api-client';

/** GET /api/users/me. `token` checks a token that is not stored yet (right after sign-in). */
export function getCurrentUser(options: { token?: string; signal?: AbortSignal } = {}): Promise<CurrentUser> {
  return apiRequest('/users/me', {
    schema: CurrentUserSchema,
    auth: options.token ?? true,
    signal: options.signal,
  });
}

export const currentUserQueryKey = ['users', 'me'] as const;

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => getCurrentUser({ signal }),
    // Who is signed in changes only through sign-in and sign-out, which write this cache directly.
    staleTime: 5 * 60_000,
  });
}
