import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Counts failed sign-ins per username and per client address. With Redis the counts are shared by
 * every server instance, so spreading guesses across instances gains nothing.
 */
export interface LoginThrottle {
  /** Seconds to wait before another attempt is allowed, or 0. */
  retryAfterSeconds(usernameKey: string, address: string): Promise<number>;
  recordFailure(usernameKey: string, address: string): Promise<void>;
  recordSuccess(usernameKey: string): Promise<void>;
}

export const LOGIN_LIMITS = {
  perUsername: { points: 5, durationSeconds: 15 * 60 },
  perAddress: { points: 30, durationSeconds: 15 * 60 },
} as const;

export function createLoginThrottle(redis?: Redis): LoginThrottle {
  const make = (prefix: string, limit: { points: number; durationSeconds: number }): RateLimiterAbstract => {
    const options = { keyPrefix: `login-fail:${prefix}`, points: limit.points, duration: limit.durationSeconds };
    return redis ? new RateLimiterRedis({ storeClient: redis, ...options }) : new RateLimiterMemory(options);
  };
  const byUsername = make('user', LOGIN_LIMITS.perUsername);
  const byAddress = make('addr', LOGIN_LIMITS.perAddress);

  const blockedFor = async (limiter: RateLimiterAbstract, key: string): Promise<number> => {
    const state = await limiter.get(key);
    if (!state || state.consumedPoints < limiter.points) return 0;
    return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  };

  return {
    async retryAfterSeconds(usernameKey, address) {
      const [user, addr] = await Promise.all([blockedFor(byUsername, usernameKey), blockedFor(byAddress, address)]);
      return Math.max(user, addr);
    },
    async recordFailure(usernameKey, address) {
      // consume() rejects with a RateLimiterRes once the limit is passed; that is expected here.
      const swallowLimit = (error: unknown) => {
        if (!(error instanceof RateLimiterRes)) throw error;
      };
      await Promise.all([
        byUsername.consume(usernameKey).catch(swallowLimit),
        byAddress.consume(address).catch(swallowLimit),
      ]);
    },
    async recordSuccess(usernameKey) {
      await byUsername.delete(usernameKey);
    },
  };
}
