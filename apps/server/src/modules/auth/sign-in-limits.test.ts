import crypto from 'node:crypto';
import { PassThrough } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createDonor, signInForm, TEST_PASSWORD } from '../../../test/factories';
import { redisForTests, TEST_REDIS_URL } from '../../../test/support/redis';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy';
import { LOGIN_LIMITS } from '../../lib/login-throttle';

/**
 * Failed sign-in limits (PRODUCT.md 3.9, docs/security.md): counted before the password is checked,
 * per username and address, per address and per username; in this process, or in Redis shared by
 * every instance, falling back to this process while Redis is unreachable.
 */

const run = crypto.randomBytes(3).toString('hex');
let addresses = 0;
/** A loopback address of its own per use, unique to this run (Redis keys outlive a run). */
const freshAddress = () => {
  addresses += 1;
  return `127.${parseInt(run.slice(0, 2), 16)}.${parseInt(run.slice(2, 4), 16)}.${addresses}`;
};

const signIn = signInForm;

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

const LOCKED_MESSAGE = /^Too many failed login attempts\. Please try again in \d+ minutes?\.$/;
const PAIR_LIMIT = LOGIN_LIMITS.perUsernameAndAddress.points;

/** The rules, run against a test app with or without Redis. */
function signInLimitRules(name: string, label: string, makeApp: () => Promise<TestApp>) {
  describe(name, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeApp();
    });
    afterAll(() => t?.close());

    it('300 parallel guesses from one address get no more password checks than a sequence, and the 300th, right password gets no token', async () => {
      const owner = await createDonor(t, { username: `burst_${run}_${label}` });
      const address = freshAddress();
      const guesses = Array.from({ length: 300 }, (_, index) =>
        signIn(t, owner.username, index === 299 ? TEST_PASSWORD : `wrong-${index}`, address),
      );
      const responses = await Promise.all(guesses);
      expect(tally(responses.map((response) => response.statusCode))).toEqual({ 401: PAIR_LIMIT, 429: 300 - PAIR_LIMIT });
      expect(responses.some((response) => response.body.includes('access_token'))).toBe(false);
      const refused = responses.find((response) => response.statusCode === 429)!;
      expect(refused.json().detail).toMatch(LOCKED_MESSAGE);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

      // The owner, signing in from elsewhere, is not locked out by the stranger.
      const ownerElsewhere = await signIn(t, owner.username, TEST_PASSWORD, freshAddress());
      expect(ownerElsewhere.statusCode).toBe(200);
      expect(ownerElsewhere.json().access_token).toEqual(expect.any(String));
      // The stranger's address stays refused, even with the right password.
      expect((await signIn(t, owner.username, TEST_PASSWORD, address)).statusCode).toBe(429);
    });

    it('a sequence gets the same number of tries: five wrong passwords, then 429 even for the right one', async () => {
      const owner = await createDonor(t, { username: `seq_${run}_${label}` });
      const address = freshAddress();
      for (let attempt = 0; attempt < PAIR_LIMIT; attempt += 1) {
        expect((await signIn(t, owner.username, `wrong-${attempt}`, address)).statusCode).toBe(401);
      }
      const blocked = await signIn(t, owner.username, TEST_PASSWORD, address);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().detail).toBe('Too many failed login attempts. Please try again in 15 minutes.');
    });

    it('a right password gives its attempt back and forgets the owner’s typos at that address', async () => {
      const owner = await createDonor(t, { username: `typo_${run}_${label}` });
      const address = freshAddress();
      for (let attempt = 0; attempt < PAIR_LIMIT - 1; attempt += 1) {
        expect((await signIn(t, owner.username, `typo-${attempt}`, address)).statusCode).toBe(401);
      }
      expect((await signIn(t, owner.username, TEST_PASSWORD, address)).statusCode).toBe(200);
      // A fresh allowance of typos, then the limit again.
      for (let attempt = 0; attempt < PAIR_LIMIT; attempt += 1) {
        expect((await signIn(t, owner.username, `typo-again-${attempt}`, address)).statusCode).toBe(401);
      }
      expect((await signIn(t, owner.username, TEST_PASSWORD, address)).statusCode).toBe(429);
    });

    it('one address guessing many usernames is stopped after the per-address limit; other addresses are not', async () => {
      const owner = await createDonor(t, { username: `spray_${run}_${label}` });
      const address = freshAddress();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < LOGIN_LIMITS.perAddress.points; attempt += 1) {
        statuses.push((await signIn(t, `ghost_${run}_${attempt}`, 'wrong-pass', address)).statusCode);
      }
      expect(tally(statuses)).toEqual({ 401: LOGIN_LIMITS.perAddress.points });
      expect((await signIn(t, owner.username, TEST_PASSWORD, address)).statusCode).toBe(429);
      expect((await signIn(t, owner.username, TEST_PASSWORD, freshAddress())).statusCode).toBe(200);
    });

    it('addresses of one IPv6 /64 share the per-address limit: rotating through it earns no more guesses', async () => {
      const owner = await createDonor(t, { username: `v6_${run}_${label}` });
      // One client's /64, a different host address per guess; and a neighbouring /64.
      const network = `2001:db8:${run.slice(0, 4)}:${freshAddress().split('.').pop()}`;
      const statuses: number[] = [];
      for (let attempt = 0; attempt <= LOGIN_LIMITS.perAddress.points; attempt += 1) {
        statuses.push((await signIn(t, `ghost6_${run}_${attempt}`, 'wrong-pass', `${network}::${(attempt + 1).toString(16)}`)).statusCode);
      }
      expect(tally(statuses)).toEqual({ 401: LOGIN_LIMITS.perAddress.points, 429: 1 });
      expect((await signIn(t, owner.username, TEST_PASSWORD, `${network}:ffff:ffff:ffff:fffe`)).statusCode).toBe(429);
      expect((await signIn(t, owner.username, TEST_PASSWORD, `${network.slice(0, -1)}f::1`)).statusCode).toBe(200);
    });

    it('guesses at one account from many addresses stay bounded by the per-account ceiling', async () => {
      const owner = await createDonor(t, { username: `many_${run}_${label}` });
      const perAccount = LOGIN_LIMITS.perUsername.points;
      const statuses: number[] = [];
      // Each address stays under its own limit; together they reach the account's ceiling.
      let address = freshAddress();
      for (let attempt = 0; attempt < perAccount + 10; attempt += 1) {
        if (attempt % (PAIR_LIMIT - 1) === 0) address = freshAddress();
        statuses.push((await signIn(t, owner.username, `wrong-${attempt}`, address)).statusCode);
      }
      expect(tally(statuses)).toEqual({ 401: perAccount, 429: 10 });
    });
  });
}

signInLimitRules('in this process (no Redis)', 'mem', () => createTestApp());

const redisAvailable = await redisForTests('the Redis sign-in limit tests');

/**
 * Until its Redis connection is ready an instance counts in memory (as while Redis is down), and
 * those counts are not in Redis afterwards: wait until the app has counted an attempt in Redis.
 */
async function untilCountingInRedis(app: TestApp, warmUser: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    const warmAddress = freshAddress();
    let counted = false;
    for (let waited = 0; !counted && waited < 15_000; waited += 100) {
      await signIn(app, warmUser, 'warming-up', warmAddress);
      counted = (await redis.exists(`login-attempt:pair:${warmUser}|${warmAddress}`)) === 1;
      if (!counted) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(counted).toBe(true);
  } finally {
    redis.disconnect();
  }
}

describe.skipIf(!redisAvailable)('with Redis', () => {
  signInLimitRules('counted in Redis', 'redis', async () => {
    const app = await createTestApp({ env: { REDIS_URL: TEST_REDIS_URL } });
    await untilCountingInRedis(app, `warm_${run}_rules`);
    return app;
  });

  afterAll(async () => {
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`login-attempt:*${run}*`);
    const prefix = `127.${parseInt(run.slice(0, 2), 16)}.${parseInt(run.slice(2, 4), 16)}.`;
    keys.push(...(await redis.keys(`login-attempt:*${prefix}*`)));
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('two instances on one Redis: 100 parallel guesses split between them get five password checks in all', async () => {
    const [first, second] = await Promise.all([
      createTestApp({ env: { REDIS_URL: TEST_REDIS_URL } }),
      createTestApp({ env: { REDIS_URL: TEST_REDIS_URL } }),
    ]);
    try {
      for (const [index, app] of [first, second].entries()) await untilCountingInRedis(app, `warm_${run}_${index}`);
      const address = freshAddress();
      const username = `split_${run}`;
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, index) => signIn(index % 2 === 0 ? first : second, username, `wrong-${index}`, address)),
      );
      expect(tally(responses.map((response) => response.statusCode))).toEqual({ 401: PAIR_LIMIT, 429: 100 - PAIR_LIMIT });
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  describe('while Redis is unreachable', () => {
    let proxy: TcpProxy;
    let t: TestApp;
    const logs = new PassThrough();
    let logText = '';
    logs.on('data', (chunk: Buffer) => (logText += chunk.toString()));

    beforeAll(async () => {
      // Redis is down from the start: the app must start all the same.
      proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(TEST_REDIS_URL).port || 6379) }, { listening: false });
      t = await createTestApp({
        // Through the proxy to the tests' Redis and its database (the path of TEST_REDIS_URL).
        env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}${new URL(TEST_REDIS_URL).pathname}`, LOG_LEVEL: 'warn' },
        logStream: logs,
      });
    });
    afterAll(async () => {
      await t?.close();
      await proxy?.close();
    });

    it('signs in and refuses wrong passwords, counting in this process, warns once, and uses Redis again when it returns', async () => {
      const owner = await createDonor(t, { username: `outage_${run}` });
      const address = freshAddress();
      expect((await signIn(t, owner.username, TEST_PASSWORD, address)).statusCode).toBe(200);
      for (let attempt = 0; attempt < PAIR_LIMIT; attempt += 1) {
        expect((await signIn(t, owner.username, `wrong-${attempt}`, address)).statusCode).toBe(401);
      }
      expect((await signIn(t, owner.username, TEST_PASSWORD, address)).statusCode).toBe(429);
      const warnings = logText.split('\n').filter((line) => line.includes('is unreachable'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('counting request and sign-in limits in this process');

      // Redis is back: ioredis reconnects by itself, and the counts go to Redis again.
      await proxy.up();
      const redis = new Redis(TEST_REDIS_URL);
      try {
        const later = freshAddress();
        const pairKey = `login-attempt:pair:${owner.username}|${later}`;
        let counted = false;
        for (let waited = 0; waited < 15_000 && !counted; waited += 250) {
          expect((await signIn(t, owner.username, 'wrong-again', later)).statusCode).toBe(401);
          counted = (await redis.exists(pairKey)) === 1;
          if (!counted) await new Promise((resolve) => setTimeout(resolve, 250));
        }
        expect(counted).toBe(true);
        expect(logText).toContain('is reachable again');

        // And away again, mid-use: still no 500.
        await proxy.down();
        expect((await signIn(t, owner.username, TEST_PASSWORD, freshAddress())).statusCode).toBe(200);
      } finally {
        redis.disconnect();
      }
    });
  });
});
