import { Redis } from 'ioredis';

/** The real Redis the tests use (CI starts one at 127.0.0.1:6379). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

export async function redisAnswers(url = TEST_REDIS_URL): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined); // answered below by the failed connect
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Whether the tests that need Redis can run: under CI a missing Redis is a failure, not a skip
 * (`needed` false: the file does not need it in this pass, and nothing is probed).
 */
export async function redisForTests(what: string, needed = true): Promise<boolean> {
  if (!needed) return false;
  const available = await redisAnswers();
  if (!available && process.env.CI === 'true') {
    throw new Error(`Redis does not answer at ${TEST_REDIS_URL}: ${what} cannot run, and under CI that is a failure`);
  }
  return available;
}
