import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors';
import { clientKey } from '../lib/client-key';

/**
 * The per-client request limit: `max` requests a minute from one address, on every route, counted
 * in Redis when there is one (shared by every instance) and in this process otherwise. Checked
 * first thing (after the security headers), so a flood costs no parsing and no session check.
 *
 * With Redis, rate-limiter-flexible (the library the failed sign-in limits already use) rather than
 * @fastify/rate-limit: measured on a bare Fastify route, the plugin's hook (four awaits, an IPv6
 * pattern test and an LRU per request) cost 12–20 µs of CPU per request against 3–5 µs for this one
 * (docs/decisions/0003-request-rate-limit.md). If Redis is unreachable, each instance counts on its
 * own meanwhile rather than failing requests.
 *
 * Without Redis, the count is a synchronous one (`localRequestCounter`): an allowed request goes on
 * in the same turn, so a cached read is answered with no promise in between (5% more reads a
 * second than through the library's promise, measured).
 */
export function registerRateLimit(app: FastifyInstance, options: { max: number; redis?: Redis }): void {
  const points = options.max;
  const refuse = (reply: FastifyReply, msBeforeNext: number, done: (error?: Error) => void) => {
    const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
    // The allowance is announced when it runs out, not on every answer.
    void reply.headers({ 'retry-after': String(seconds), 'x-ratelimit-limit': String(points) });
    done(tooManyRequests(`Too many requests. Please try again in ${seconds} seconds.`));
  };

  if (!options.redis) {
    const counter = localRequestCounter(points, WINDOW_SECONDS * 1000);
    app.addHook('onRequest', (request, reply, done) => {
      const msBeforeNext = counter.take(clientKey(request.ip));
      if (msBeforeNext === 0) done();
      else refuse(reply, msBeforeNext, done);
    });
    return;
  }

  const limiter: RateLimiterAbstract = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: 'bloodbank-rate',
    points,
    duration: WINDOW_SECONDS,
    // While Redis is down, count here at once rather than hold every request in ioredis's queue.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: 'request', points, duration: WINDOW_SECONDS }),
  });
  app.addHook('onRequest', (request, reply, done) => {
    limiter.consume(clientKey(request.ip)).then(
      () => done(),
      (refusal: unknown) => {
        if (!(refusal instanceof RateLimiterRes)) return done(refusal as Error);
        refuse(reply, refusal.msBeforeNext, done);
      },
    );
  });
}

/**
 * Requests counted per key in fixed windows that start at a key's first request (as
 * rate-limiter-flexible counts them). `take` counts one and says how long until the key is allowed
 * again: 0 while it is within `max`. Ended windows are dropped once per window length, so memory
 * holds only the keys seen in the last one or two windows.
 */
export function localRequestCounter(max: number, windowMs: number, now: () => number = Date.now) {
  const windows = new Map<string, { count: number; endsAtMs: number }>();
  let nextSweepMs = 0;
  return {
    take(key: string): number {
      const nowMs = now();
      if (nowMs >= nextSweepMs) {
        for (const [ended, window] of windows) if (window.endsAtMs <= nowMs) windows.delete(ended);
        nextSweepMs = nowMs + windowMs;
      }
      let window = windows.get(key);
      if (!window || window.endsAtMs <= nowMs) {
        window = { count: 0, endsAtMs: nowMs + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return window.count <= max ? 0 : window.endsAtMs - nowMs;
    },
    /** How many keys are held (for tests). */
    get size() {
      return windows.size;
    },
  };
}

const WINDOW_SECONDS = 60;
