import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { countedLimit, countOne, type Limit } from './counted-limit';
import { clientKey } from './client-key';

/**
 * Failed sign-ins, counted three ways (OWASP Authentication Cheat Sheet, "Account lockout"):
 * - per username and client address: the owner's own typos, and a guesser at one address;
 * - per client address, over every username: one address spraying many accounts;
 * - per username, from every address: a slower, higher ceiling, so guesses at one account from many
 *   addresses stay bounded, while a stranger at one address cannot lock the owner out elsewhere.
 *
 * An attempt is counted before its password is checked, in one atomic step per counter (an
 * increment in this process, or Redis's INCR shared by every instance): a burst of parallel
 * guesses gets exactly as many checks as a sequence would. A right password gives its attempt back.
 *
 * With Redis, each counter falls back to one in this process while Redis is unreachable (the
 * request limit does the same), so signing in never waits on or fails with Redis.
 */
export interface LoginThrottle {
  /**
   * Counts one attempt. Refused when a limit is reached: the caller answers 429 and checks no
   * password. Otherwise the caller checks the password and, when it is right, calls
   * `passwordAccepted()`.
   */
  begin(usernameKey: string, ip: string): Promise<LoginAttempt>;
}

export type LoginAttempt =
  | { allowed: false; retryAfterSeconds: number }
  | { allowed: true; passwordAccepted(): Promise<void> };

/** Numbers documented in docs/security.md ("Guessing passwords"). */
export const LOGIN_LIMITS = {
  perUsernameAndAddress: { points: 5, durationSeconds: 15 * 60 },
  perAddress: { points: 30, durationSeconds: 15 * 60 },
  perUsername: { points: 50, durationSeconds: 60 * 60 },
} as const;

export function createLoginThrottle(redis?: Redis, limits: Record<keyof typeof LOGIN_LIMITS, Limit> = LOGIN_LIMITS): LoginThrottle {
  const make = (prefix: string, limit: Limit) => countedLimit(`login-attempt:${prefix}`, limit, redis);
  // Checked in this order; an attempt refused by one is not counted by the ones after it.
  const counters = [
    { limiter: make('pair', limits.perUsernameAndAddress), key: (user: string, address: string) => `${user}|${address}` },
    { limiter: make('addr', limits.perAddress), key: (_user: string, address: string) => address },
    { limiter: make('user', limits.perUsername), key: (user: string) => user },
  ];

  return {
    async begin(usernameKey, ip) {
      const address = clientKey(ip);
      const counted: { limiter: RateLimiterAbstract; key: string }[] = [];
      for (const counter of counters) {
        const key = counter.key(usernameKey, address);
        const msBeforeNext = await countOne(counter.limiter, key);
        if (msBeforeNext !== null) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) };
        counted.push({ limiter: counter.limiter, key });
      }
      return {
        allowed: true,
        async passwordAccepted() {
          // The owner is back: the failures of this username at this address are forgotten; the
          // other counters only get this attempt back, as they also count other people's guesses.
          const [pair, ...others] = counted;
          await Promise.all([
            pair?.limiter.delete(pair.key),
            ...others.map(({ limiter, key }) => limiter.reward(key)),
          ]);
        },
      };
    },
  };
}
