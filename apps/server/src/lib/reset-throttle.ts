import type { Redis } from 'ioredis';
import { clientKey } from './client-key';
import { countedLimit, countOne } from './counted-limit';

/** Password reset requests per client address (docs/security.md): enough for a person, too few to mail-bomb with. */
export const RESET_REQUESTS_PER_ADDRESS = { points: 10, durationSeconds: 60 * 60 };

export interface ResetThrottle {
  /** Counts one request from the client at `ip` (its /64 for IPv6): null when allowed, else the seconds until it may ask again. */
  waitBeforeNext(ip: string): Promise<number | null>;
}

/** Counted in Redis when configured (across instances), else in this process; like the sign-in limits. */
export function createResetThrottle(redis?: Redis): ResetThrottle {
  const limiter = countedLimit('password-reset', RESET_REQUESTS_PER_ADDRESS, redis);
  return {
    waitBeforeNext: async (ip) => {
      const msBeforeNext = await countOne(limiter, clientKey(ip));
      return msBeforeNext === null ? null : Math.max(1, Math.ceil(msBeforeNext / 1000));
    },
  };
}
