import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** Password reset requests per client address (docs/security.md): enough for a person, too few to mail-bomb with. */
export const RESET_REQUESTS_PER_ADDRESS = { points: 10, durationSeconds: 60 * 60 };

export interface ResetThrottle {
  /** Counts one request from `address`: false when the address has asked too often. */
  allow(address: string): Promise<boolean>;
}

/** Counted in Redis when configured (across instances), else in this process; like the sign-in limits. */
export function createResetThrottle(redis?: Redis): ResetThrottle {
  const options = { keyPrefix: 'password-reset', points: RESET_REQUESTS_PER_ADDRESS.points, duration: RESET_REQUESTS_PER_ADDRESS.durationSeconds };
  const limiter = redis
    ? new RateLimiterRedis({ storeClient: redis, ...options, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
    : new RateLimiterMemory(options);
  return {
    allow: async (address) => {
      try {
        await limiter.consume(address);
        return true;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return false;
        throw refusal;
      }
    },
  };
}
