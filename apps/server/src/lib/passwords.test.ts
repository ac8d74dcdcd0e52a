import { describe, expect, it } from 'vitest';
import { HASHES_AT_ONCE, hashesInFlight, hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one or a broken hash', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse batterY')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse battery')).toBe(false);
    expect(await verifyAgainstDummy('correct horse battery')).toBe(false);
  });

  it('runs at most one hash per core at once, leaving a libuv thread free; the rest wait their turn', async () => {
    expect(HASHES_AT_ONCE).toBeGreaterThanOrEqual(1);
    expect(HASHES_AT_ONCE).toBeLessThan(Number(process.env.UV_THREADPOOL_SIZE) || 4);
    const stored = await hashPassword('a sign-in rush');
    const rush = Array.from({ length: HASHES_AT_ONCE + 4 }, (_, index) =>
      verifyPassword(stored, index % 2 ? 'a sign-in rush' : 'a wrong guess'),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(hashesInFlight()).toEqual({ running: HASHES_AT_ONCE, waiting: 4 });
    const outcomes = await Promise.all(rush);
    expect(outcomes).toEqual(rush.map((_, index) => index % 2 === 1));
    expect(hashesInFlight()).toEqual({ running: 0, waiting: 0 });
  });
});
