import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';

/**
 * Every admin query key starts with ['admin', <scope>], so a mutation invalidates exactly the
 * scopes whose numbers it changes (ARCHITECTURE.md convention 10).
 */
export type AdminScope =
  | 'dashboard'
  | 'donors'
  | 'patients'
  | 'units'
  | 'donations'
  | 'requests'
  | 'audit'
  | 'deferrals'
  | 'thresholds'
  | 'sites'
  /** Each site's day list: who comes when (changes with every check-in and collection). */
  | 'siteDays'
  /** Low-stock call-outs: who was told, who booked. */
  | 'callouts';

export const adminKeys = {
  scope: (scope: AdminScope) => ['admin', scope] as const,
  list: <Q extends object>(scope: AdminScope, query: Q) => ['admin', scope, 'list', query] as const,
};

export function invalidateAdmin(queryClient: QueryClient, scopes: readonly AdminScope[]): Promise<void> {
  return Promise.all(
    scopes.map((scope) => queryClient.invalidateQueries({ queryKey: adminKeys.scope(scope) })),
  ).then(() => undefined);
}

/**
 * For a mutation's onError: a 409 says the thing changed meanwhile (another staff member recorded or
 * checked in first), so the lists still show it as it was. They are reloaded as after a success, and
 * the row that cannot be acted on any more goes.
 */
export function invalidateAdminOnConflict(
  queryClient: QueryClient,
  error: unknown,
  scopes: readonly AdminScope[],
): Promise<void> | undefined {
  return error instanceof ApiError && error.status === 409 ? invalidateAdmin(queryClient, scopes) : undefined;
}
