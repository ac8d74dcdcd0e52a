import type { QueryClient } from '@tanstack/react-query';

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
