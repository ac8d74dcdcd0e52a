import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * The Redis connection behind the shared limits (the request limit and the failed sign-in
 * counters). Losing it must never stop the server: the limiters count in this process while it is
 * unreachable (rejectIfRedisNotReady + an in-memory insurance limiter), and ioredis reconnects by
 * itself. This says so in the log once per outage, not once per failed reconnection.
 */
export function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  const where = describeAddress(url);
  let reachable: boolean | undefined;
  redis.on('error', (error: Error) => {
    if (reachable === false) return;
    reachable = false;
    log.warn(
      `Redis at ${where} is unreachable (${error.message}): counting request and sign-in limits in this process until it returns`,
    );
  });
  redis.on('ready', () => {
    if (reachable === false) log.warn(`Redis at ${where} is reachable again: limits are shared by every instance again`);
    reachable = true;
  });
  return redis;
}

/** Closes the connection: politely when Redis answers, at once when it does not (quit would wait for it). */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}

/** host:port only: a redis:// URL may carry a password. */
function describeAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'REDIS_URL';
  }
}
