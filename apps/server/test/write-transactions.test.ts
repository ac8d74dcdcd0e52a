import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTransactionsFor } from '../src/db/write-transactions';
import { createPatient, type TestUser } from './factories';
import { createTestApp, type TestApp } from './test-app';

/**
 * Writes that arrive together share a commit on SQLite (db/write-transactions.ts); each must still
 * behave as a transaction of its own.
 */
let t: TestApp;
let patient: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-06-15T10:00:00Z' });
  patient = await createPatient(t);
});
afterAll(() => t.close());

const activity = (message: string) => ({
  user_id: patient.id,
  kind: 'request',
  message,
  created_at: '2026-06-15T10:00:00.000Z',
});

describe('write transactions', () => {
  it('keeps the work that succeeded, drops all of the work that failed, and reports each outcome to its caller', async () => {
    const writes = writeTransactionsFor(t);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) =>
        writes.run(async (trx) => {
          await trx
            .insertInto('activities')
            .values(activity(`batch ${index}`))
            .execute();
          if (index % 3 === 0) throw new Error(`work ${index} refused`);
          await trx
            .insertInto('activities')
            .values(activity(`batch ${index} second`))
            .execute();
          return index;
        }),
      ),
    );
    outcomes.forEach((outcome, index) => {
      if (index % 3 === 0)
        expect(outcome).toEqual({ status: 'rejected', reason: new Error(`work ${index} refused`) });
      else expect(outcome).toEqual({ status: 'fulfilled', value: index });
    });
    const rows = await t.db
      .selectFrom('activities')
      .select('message')
      .where('message', 'like', 'batch %')
      .execute();
    const kept = rows.map((row) => row.message).sort();
    const expected = Array.from({ length: 30 }, (_, index) => index)
      .filter((index) => index % 3 !== 0)
      .flatMap((index) => [`batch ${index}`, `batch ${index} second`])
      .sort();
    expect(kept).toEqual(expected);
  });

  it('lets each work see what the work before it wrote, as if it had committed', async () => {
    const writes = writeTransactionsFor(t);
    const counts = await Promise.all(
      Array.from({ length: 5 }, () =>
        writes.run(async (trx) => {
          await trx.insertInto('activities').values(activity('sequence')).execute();
          const row = await trx
            .selectFrom('activities')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('message', '=', 'sequence')
            .executeTakeFirstOrThrow();
          return Number(row.count);
        }),
      ),
    );
    // On SQLite one after another in a shared transaction; on PostgreSQL side by side, each
    // seeing at least its own row.
    if (t.engine === 'sqlite') expect(counts).toEqual([1, 2, 3, 4, 5]);
    else for (const count of counts) expect(count).toBeGreaterThanOrEqual(1);
  });

  it('runs many transactions that change the same tables in opposite orders without a deadlock', async () => {
    const writes = writeTransactionsFor(t);
    const touchUser = (trx: Parameters<Parameters<typeof writes.run>[0]>[0]) =>
      trx
        .updateTable('users')
        .set({ updated_at: '2026-06-15T10:00:00.000Z' })
        .where('id', '=', patient.id)
        .execute();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, index) =>
        writes.run(async (trx) => {
          if (index % 2 === 0) {
            await trx.insertInto('activities').values(activity('crossing')).execute();
            await touchUser(trx);
          } else {
            await touchUser(trx);
            await trx.insertInto('activities').values(activity('crossing')).execute();
          }
          return index;
        }),
      ),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
  });
});
