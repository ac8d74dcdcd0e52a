import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** So many events per key in a window of so many seconds. */
export interface Limit {
  points: number;
  durationSeconds: number;
}

/**
 * A counter of events per key for one limit (failed sign-ins, reset requests, e-mails to one
 * address): in Redis when configured, shared by every instance, and in this process otherwise.
 * While Redis is unreachable it counts here at once rather than queue behind the reconnection (the
 * request limit does the same), so nothing waits on or fails with Redis.
 */
export function countedLimit(keyPrefix: string, limit: Limit, redis?: Redis): RateLimiterAbstract {
  const options = { keyPrefix, points: limit.points, duration: limit.durationSeconds };
  if (!redis) return new RateLimiterMemory(options);
  return new RateLimiterRedis({
    storeClient: redis,
    ...options,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

/** Counts one event for `key`: null when within the limit, else the milliseconds until the next is allowed. */
export async function countOne(limiter: RateLimiterAbstract, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return refusal.msBeforeNext;
    throw refusal;
  }
}
