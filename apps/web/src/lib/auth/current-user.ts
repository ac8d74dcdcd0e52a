import { queryOptions } from '@tanstack/react-query';
import type { CurrentUser } from '@bloodbank/shared/auth';
import { isUserType } from '@bloodbank/shared/roles';
import { apiRequest, type ResponseCheck } from '../api-client';

/**
 * Checks the fields the app relies on to route a signed-in user, without zod: this runs before the
 * first screen, which must not wait for the validation library.
 */
const currentUserCheck: ResponseCheck<CurrentUser> = {
  parse(value) {
    const user = value as Partial<CurrentUser> | null;
    if (
      !user ||
      typeof user.userId !== 'number' ||
      !isUserType(user.userType) ||
      typeof user.username !== 'string'
    ) {
      throw new Error('Unexpected response from /api/users/me');
    }
    return user as CurrentUser;
  },
};

/** GET /api/users/me. `token` checks a token that is not stored yet (right after sign-in). */
export function getCurrentUser(options: { token?: string; signal?: AbortSignal } = {}): Promise<CurrentUser> {
  return apiRequest('/users/me', {
    schema: currentUserCheck,
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
