import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Address6 } from 'ip-address';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors';

/**
 * The per-client request limit: `max` requests a minute from one address, on every route, counted
 * in Redis when there is one (shared by every instance) and in this process otherwise. Checked
 * first thing (after the security headers), so a flood costs no parsing and no session check.
 *
 * rate-limiter-flexible, the library the failed sign-in limits already use, rather than
 * @fastify/rate-limit: measured on a bare Fastify route, the plugin's hook (four awaits, an IPv6
 * pattern test and an LRU per request) cost 12–20 µs of CPU per request against 3–5 µs for this one,
 * about a fifth of what a cached read costs in all (docs/decisions/0003-request-rate-limit.md).
 *
 * If Redis is unreachable, each instance counts on its own meanwhile rather than failing requests.
 */
export function registerRateLimit(app: FastifyInstance, options: { max: number; redis?: Redis }): void {
  const points = options.max;
  const local = new RateLimiterMemory({ keyPrefix: 'request', points, duration: WINDOW_SECONDS });
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix: 'bloodbank-rate',
        points,
        duration: WINDOW_SECONDS,
        // While Redis is down, count here at once rather than hold every request in ioredis's queue.
        rejectIfRedisNotReady: true,
        insuranceLimiter: local,
      })
    : local;

  app.addHook('onRequest', (request, reply, done) => {
    limiter.consume(clientKey(request.ip)).then(
      () => done(),
      (refusal: unknown) => {
        if (!(refusal instanceof RateLimiterRes)) return done(refusal as Error);
        const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
        // The allowance is announced when it runs out, not on every answer.
        void reply.headers({ 'retry-after': String(seconds), 'x-ratelimit-limit': String(points) });
        done(tooManyRequests(`Too many requests. Please try again in ${seconds} seconds.`));
      },
    );
  });
}

const WINDOW_SECONDS = 60;

/**
 * The address a budget belongs to. An IPv6 client usually holds a whole /64 and could rotate
 * through it, so the budget is the /64's; an IPv4 address mapped into IPv6 is that IPv4 address.
 */
export function clientKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  try {
    const address = new Address6(ip);
    if (address.isMapped4()) return address.to4().correctForm();
    return new Address6(`${ip}/64`).startAddress().correctForm();
  } catch {
    return ip;
  }
}
