import type { Redis } from 'ioredis';
import { countedLimit, countOne } from './counted-limit';

/** What an account is told about its own security: its password, or its e-mail address, changed. */
export type SecurityNoticeKind = 'password-changed' | 'address-changed';

/** Each account's first notice of a kind in this long is sent outside the address's e-mail budget. */
const FREE_NOTICES = { points: 1, durationSeconds: 3_600 };

export interface SecurityNotices {
  /**
   * Whether this notice goes outside the address's e-mail budget (mail-budget.ts): an account's
   * first of the hour does, so a stranger who spent the budget cannot silence it; the next ones of
   * the hour are counted, so changing one's own password or address back and forth (a stranger
   * who registered with someone else's address) cannot flood that address.
   */
  outsideBudget(kind: SecurityNoticeKind, userId: number): Promise<boolean>;
}

export function createSecurityNotices(redis?: Redis): SecurityNotices {
  const limiter = countedLimit('security-notice', FREE_NOTICES, redis);
  return { outsideBudget: async (kind, userId) => (await countOne(limiter, `${kind}:${userId}`)) === null };
}
