import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../test-app';
import { redisForTests, TEST_REDIS_URL } from '../support/redis';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  call,
  createServerStore,
  startServer,
  type ServerProcess,
  type ServerStore,
} from './server-process';

/**
 * Beyond one machine (PRODUCT.md section 5): two server processes on one PostgreSQL database and
 * one Redis. The limits that protect sign-in live in Redis, so spreading attempts over instances
 * gains nothing. (That parallel approvals through two instances never issue a unit twice is proved
 * by test/two-instances.pg.test.ts.)
 *
 * PostgreSQL pass only (the file is named *.pg.test.ts so the SQLite pass does not collect it).
 * Redis at 127.0.0.1:6379 is required under CI; elsewhere the file is skipped without it. Every key
 * this file touches carries addresses and names unique to the run, and is deleted afterwards.
 */

const REDIS_URL = TEST_REDIS_URL;
const RATE_LIMIT_MAX = 30;

const redisAvailable = await redisForTests('the scale-out tests', Boolean(testDatabaseUrl));

describe.skipIf(!testDatabaseUrl || !redisAvailable)('two instances on one PostgreSQL and one Redis', () => {
  const run = crypto.randomBytes(4).toString('hex');
  /** A client address of its own per test (the instances trust X-Forwarded-For, as behind a load balancer). */
  const addressFor = (test: number) =>
    `10.${test}.${parseInt(run.slice(0, 2), 16)}.${parseInt(run.slice(2, 4), 16)}`;
  let store: ServerStore;
  let instances: ServerProcess[] = [];
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    store = await createServerStore();
    const env = {
      REDIS_URL,
      JWT_SECRET: `scale-out-${run}-a-secret-shared-by-every-instance`,
      TRUST_PROXY: 'true',
      RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
    };
    // One after the other: the first migrates the empty database, the second finds it ready.
    instances = [await startServer(store, env)];
    instances.push(await startServer(store, env));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill('SIGKILL')));
    await store?.remove();
    if (redis) {
      for (const pattern of [`*${run}*`, ...[1, 2, 3].map((test) => `*${addressFor(test)}*`)]) {
        const keys = await redis.keys(pattern);
        if (keys.length > 0) await redis.del(...keys);
      }
      redis.disconnect();
    }
  });

  const signInAt = (instance: ServerProcess, address: string, username: string, password: string) =>
    fetch(`${instance.baseUrl}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
      body: new URLSearchParams({ username, password }).toString(),
    });

  it('a token from one instance is honoured by the other: they share the secret and the database', async () => {
    const [first, second] = instances as [ServerProcess, ServerProcess];
    const response = await signInAt(first, addressFor(1), ADMIN_USERNAME, ADMIN_PASSWORD);
    expect(response.status).toBe(200);
    const { access_token: token } = (await response.json()) as { access_token: string };
    const dashboard = await call(second.baseUrl, 'GET', '/api/admin/dashboard', { token });
    expect(dashboard.status).toBe(200);
  });

  it('holds the failed sign-in limit across instances: failures split between them still end in 429', async () => {
    const [first, second] = instances as [ServerProcess, ServerProcess];
    const username = `scale_${run}`;
    const registered = await fetch(`${first.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': addressFor(2) },
      body: JSON.stringify({
        user_type: 'donor',
        username,
        password: 'the-right-password',
        first_name: 'Leela',
        last_name: 'Menon',
        email: 'leela@example.org',
        bloodgroup: 'O-',
        address: '4 Beach Road',
        mobile: '9876543210',
      }),
    });
    expect(registered.status).toBe(201);

    // Five wrong guesses, three on one instance and two on the other: each instance alone saw fewer than five.
    const statuses: number[] = [];
    for (const instance of [first, second, first, second, first]) {
      statuses.push((await signInAt(instance, addressFor(2), username, 'a-wrong-guess')).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);

    // Now even the right password is refused, on either instance.
    for (const instance of [second, first]) {
      const refused = await signInAt(instance, addressFor(2), username, 'the-right-password');
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(
        /^Too many failed login attempts\. Please try again in \d+ minutes?\.$/,
      );
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('holds the request rate limit across instances: the budget of one client is shared, not doubled', async () => {
    const [first, second] = instances as [ServerProcess, ServerProcess];
    const health = (instance: ServerProcess) =>
      fetch(`${instance.baseUrl}/api/health`, { headers: { 'x-forwarded-for': addressFor(3) } }).then(
        (response) => response.status,
      );
    const statuses: number[] = [];
    for (let index = 0; index < RATE_LIMIT_MAX; index += 1)
      statuses.push(await health(index % 3 === 0 ? second : first));
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(await health(first)).toBe(429);
    expect(await health(second)).toBe(429);
  });
});
