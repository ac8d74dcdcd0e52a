import type { Redis } from 'ioredis';
import { countedLimit, countOne, type Limit } from '../../lib/counted-limit';

/**
 * E-mails one address is sent in an hour, at most (docs/security.md, "Mail bombing"): far above
 * what a person's own bookings, results and reminders send, far below what a stranger could send
 * to someone else's address by registering with it and booking and cancelling in a loop (two
 * e-mails a pair, 56 a second were measured). Past it, a message is not mailed; it stays in the
 * person's list in the app.
 */
export const EMAILS_PER_ADDRESS = { points: 20, durationSeconds: 60 * 60 } as const;

export interface MailBudget {
  /** Counts one e-mail to `address` (in any letter case): false once its hour's budget is spent. */
  allows(address: string): Promise<boolean>;
  /** Gives back the count of an e-mail that could not be sent (it is tried again later). */
  refund(address: string): Promise<void>;
}

/** Counted in Redis when configured (shared by every instance), else in this process; like the sign-in limits. */
export function createMailBudget(redis?: Redis, limit: Limit = EMAILS_PER_ADDRESS): MailBudget {
  const limiter = countedLimit('mail-to', limit, redis);
  const keyOf = (address: string) => address.trim().toLowerCase();
  return {
    allows: async (address) => (await countOne(limiter, keyOf(address))) === null,
    refund: async (address) => {
      await limiter.reward(keyOf(address));
    },
  };
}
