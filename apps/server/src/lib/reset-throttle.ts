import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { clientKey } from './client-key';

/** Password reset requests per client address (docs/security.md): enough for a person, too few to mail-bomb with. */
export const RESET_REQUESTS_PER_ADDRESS = { points: 10, durationSeconds: 60 * 60 };

export interface ResetThrottle {
  /** Counts one request from the client at `ip` (its /64 for IPv6): null when allowed, else the seconds until it may ask again. */
  waitBeforeNext(ip: string): Promise<number | null>;
}

/** Counted in Redis when configured (across instances), else in this process; like the sign-in limits. */
export function createResetThrottle(redis?: Redis): ResetThrottle {
  const options = { keyPrefix: 'password-reset', points: RESET_REQUESTS_PER_ADDRESS.points, duration: RESET_REQUESTS_PER_ADDRESS.durationSeconds };
  const limiter = redis
    ? new RateLimiterRedis({ storeClient: redis, ...options, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
    : new RateLimiterMemory(options);
  return {
    waitBeforeNext: async (ip) => {
      try {
        await limiter.consume(clientKey(ip));
        return null;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
        throw refusal;
      }
    },
  };
}
