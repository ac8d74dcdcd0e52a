import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from 'kysely';
import type { DB } from '../src/db/types';
import { writeTransactionsFor } from '../src/db/write-transactions';
import { addRowWithId } from '../src/db/rows-at-commit';
import { recordActivity } from '../src/modules/activity/activity.repository';
import { insertBloodRequest } from '../src/modules/requests/requests.repository';
import { createPatient, type TestUser } from './factories';
import { createTestApp, testDatabaseUrl, type TestApp } from './test-app';

/**
 * Writes that arrive together share a commit on SQLite (db/write-transactions.ts); each must still
 * behave as a transaction of its own.
 */
let t: TestApp;
let patient: TestUser;
/** The SQL the database is sent while a test records it. */
let statements: string[] | undefined;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-06-15T10:00:00Z', queryLog: (query) => statements?.push(query) });
  patient = await createPatient(t);
});
afterAll(() => t.close());

const activity = (message: string) => ({
  user_id: patient.id,
  kind: 'request',
  message,
  created_at: '2026-06-15T10:00:00.000Z',
});

/** A feed entry recorded through the write path's own function (db/rows-at-commit.ts). */
const feedEntry = (message: string, userId = patient.id) => ({ userId, kind: 'request_submitted', message, at: '2026-06-15T10:00:00.000Z' });

/** A pending blood request of the test's patient, as the compiled insert takes it. */
const request = (reason: string) => ({
  patient_id: patient.id,
  bloodgroup: 'A+' as const,
  units: 1,
  required_date: '2026-06-20',
  doctorname: 'Dr. Direct',
  hospital_address: 'City Hospital',
  reason,
  status: 'pending' as const,
  rejection_reason: null,
  issued_bloodgroup: null,
  decided_by: null,
  decided_at: null,
  created_at: '2026-06-15T10:00:00.000Z',
  component: 'red_cells' as const,
});

/** Queues `count` works at once (one batch) and gives each one's outcome, in order. */
async function statusesOfBatch(count: number, work: (trx: Transaction<DB>, index: number) => Promise<unknown>) {
  const writes = writeTransactionsFor(t);
  const results = await Promise.allSettled(Array.from({ length: count }, (_, index) => writes.run((trx) => work(trx, index))));
  return results.map((result) => result.status);
}

/** The activity messages that begin with `marker`, sorted. */
async function messagesOf(marker: string): Promise<string[]> {
  const rows = await t.db.selectFrom('activities').select('message').where('message', 'like', `${marker} %`).orderBy('message').execute();
  return rows.map((row) => row.message);
}

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

  it('runs a write its caller queues as soon as the previous one has resolved, with nothing else arriving', async () => {
    const writes = writeTransactionsFor(t);
    const insert = (message: string) =>
      writes.run(async (trx) => {
        await trx.insertInto('activities').values(activity(message)).execute();
        return message;
      });
    const chained = await Promise.all(
      Array.from({ length: 4 }, (_, index) => insert(`first ${index}`).then(() => insert(`then ${index}`))),
    );
    expect(chained).toEqual(['then 0', 'then 1', 'then 2', 'then 3']);
  }, 5_000);

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

describe('the compiled inserts inside a write batch', () => {
  it('gives each new row its id, keeps the ones whose work succeeded and rolls back the rest with their work', async () => {
    const writes = writeTransactionsFor(t);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        writes.run(async (trx) => {
          const values = request(`direct ${index}`);
          const row = { id: await insertBloodRequest(trx, values), ...values };
          await recordActivity(trx, {
            userId: patient.id,
            kind: 'request_submitted',
            message: `direct ${index}`,
            at: row.created_at,
          });
          if (index % 4 === 0) throw new Error(`work ${index} refused`);
          return row;
        }),
      ),
    );
    const kept = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(kept).toHaveLength(9);
    for (const row of kept)
      expect(row).toMatchObject({ id: expect.any(Number), status: 'pending', doctorname: 'Dr. Direct' });
    const stored = await t.db
      .selectFrom('blood_requests')
      .select(['id', 'reason'])
      .where('doctorname', '=', 'Dr. Direct')
      .orderBy('id')
      .execute();
    // In id order (on PostgreSQL the works run side by side, so ids need not follow the callers).
    expect(stored).toEqual(
      kept.map((row) => ({ id: row.id, reason: row.reason })).sort((a, b) => a.id - b.id),
    );
    const feed = await t.db
      .selectFrom('activities')
      .select('message')
      .where('message', 'like', 'direct %')
      .execute();
    expect(feed.map((entry) => entry.message).sort()).toEqual(kept.map((row) => row.reason).sort());
  });
  it('runs a batch in which one work fails: the others are kept, that one is rolled back alone', async () => {
    const marker = `batch ${Date.now()}`;
    const statuses = await statusesOfBatch(6, async (trx, index) => {
      await trx.insertInto('activities').values(activity(`${marker} ${index}`)).execute();
      if (index === 3) throw new Error('refused');
    });
    expect(statuses).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await messagesOf(marker)).toEqual([0, 1, 2, 4, 5].map((index) => `${marker} ${index}`));
  });
});

describe('rows nobody reads back in their own write (db/rows-at-commit.ts)', () => {
  it('are inserted once per table for the whole batch, and each work keeps its own', async () => {
    const writes = writeTransactionsFor(t);
    const marker = `feed ${Date.now()}`;
    statements = [];
    try {
      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          writes.run((trx) => recordActivity(trx, feedEntry(`${marker} ${index}`))),
        ),
      );
      // Ten works queued in the same turn share one batch: one insert for their ten rows.
      expect(statements.filter((statement) => /^insert into "activities"/.test(statement))).toHaveLength(1);
    } finally {
      statements = undefined;
    }
    expect(await messagesOf(marker)).toEqual(Array.from({ length: 10 }, (_, index) => `${marker} ${index}`).sort());
  });

  it('fail only the work that added them when they cannot be inserted: the rest of the batch is kept', async () => {
    const marker = `orphan ${Date.now()}`;
    const statuses = await statusesOfBatch(5, async (trx, index) => {
      await trx.insertInto('activities').values(activity(`${marker} direct ${index}`)).execute();
      // Work 2's feed entry names a user who does not exist: its foreign key fails.
      await recordActivity(trx, feedEntry(`${marker} ${index}`, index === 2 ? 999_999_999 : patient.id));
    });
    expect(statuses).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await messagesOf(marker)).toEqual(
      [0, 1, 3, 4].flatMap((index) => [`${marker} ${index}`, `${marker} direct ${index}`]).sort(),
    );
  });
});

describe('writes that only add rows (writes.runAddingOnly)', () => {
  it('on PostgreSQL commit while another batch is still under way; on SQLite wait for it, as every write does', async () => {
    const writes = writeTransactionsFor(t);
    const marker = `beside ${Date.now()}`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A batch that holds its transaction open until released.
    const holding = writes.run(async (trx) => {
      await trx.insertInto('activities').values(activity(`${marker} held`)).execute();
      await held;
    });
    const adding = writes.runAddingOnly((trx) => trx.insertInto('activities').values(activity(`${marker} added`)).execute());
    if (t.engine === 'postgres') {
      // Committed while the other batch is still held (in one queue, this would wait forever).
      await adding;
      expect(await messagesOf(marker)).toEqual([`${marker} added`]);
    } else {
      const settledWhileHeld = await Promise.race([adding.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 300))]);
      expect(settledWhileHeld).toBe(false);
    }
    release();
    await Promise.all([holding, adding]);
    expect(await messagesOf(marker)).toEqual([`${marker} added`, `${marker} held`]);
  });

  it.runIf(Boolean(testDatabaseUrl))('refuses an update, a delete or a locking read, and rolls back what the work added before it', async () => {
    const writes = writeTransactionsFor(t);
    const marker = `refused ${Date.now()}`;
    const attempts = [
      (trx: Transaction<DB>) => trx.updateTable('activities').set({ message: 'changed' }).where('message', '=', 'nothing').execute(),
      (trx: Transaction<DB>) => trx.deleteFrom('activities').where('message', '=', 'nothing').execute(),
      (trx: Transaction<DB>) => trx.selectFrom('users').select('id').where('id', '=', patient.id).forUpdate().execute(),
    ];
    const outcomes = await Promise.allSettled(
      attempts.map((attempt, index) =>
        writes.runAddingOnly(async (trx) => {
          await trx.insertInto('activities').values(activity(`${marker} ${index}`)).execute();
          await attempt(trx);
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status === 'rejected' && String(outcome.reason))).toEqual([
      'Error: A write that only adds rows ran a UpdateQueryNode: use writes.run for it',
      'Error: A write that only adds rows ran a DeleteQueryNode: use writes.run for it',
      'Error: A write that only adds rows ran a SelectQueryNode: use writes.run for it',
    ]);
    expect(await messagesOf(marker)).toEqual([]);
    // A plain read and an insert are what such a work is for.
    const id = await writes.runAddingOnly(async (trx) => {
      await trx.selectFrom('users').select('id').where('id', '=', patient.id).executeTakeFirstOrThrow();
      return insertBloodRequest(trx, request('added beside'));
    });
    expect(await t.db.selectFrom('blood_requests').select('patient_id').where('id', '=', id).executeTakeFirst()).toEqual({ patient_id: patient.id });
  });
});

describe('rows a work adds and needs the id of (addRowWithId, writes.runAddingOnly with newRowIn)', () => {
  /** Queues `count` adding-only works at once, each adding a request (work `failing` for a patient who does not exist) and its feed entry. */
  function addRequests(marker: string, count: number, failing?: number) {
    const writes = writeTransactionsFor(t);
    return Promise.allSettled(
      Array.from({ length: count }, (_, index) =>
        writes.runAddingOnly(
          async (trx) => {
            const values = { ...request(`${marker} ${index}`), ...(index === failing ? { patient_id: 999_999_999 } : {}) };
            const id = await addRowWithId(trx, 'blood_requests', values, insertBloodRequest);
            await recordActivity(trx, feedEntry(`${marker} ${index}`));
            return { id, reason: values.reason };
          },
          { newRowIn: 'blood_requests' },
        ),
      ),
    );
  }
  const storedRequests = (marker: string) =>
    t.db.selectFrom('blood_requests').select(['id', 'reason']).where('reason', 'like', `${marker} %`).orderBy('id').execute();

  it('gives each work the id its row is stored with; on PostgreSQL the rows go in with the batch, not one statement each', async () => {
    const marker = `reserved ${Date.now()}`;
    const sent: string[] = (statements = []);
    const outcomes = await addRequests(marker, 10).finally(() => (statements = undefined));
    const inserts = sent.filter((statement) => /insert into "blood_requests"/.test(statement));
    const added = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : outcome.reason));
    expect(new Set(added.map((row: { id: number }) => row.id)).size).toBe(10);
    expect(await storedRequests(marker)).toEqual([...added].sort((a, b) => a.id - b.id));
    expect((await messagesOf(marker)).length).toBe(10);
    if (t.engine === 'postgres') {
      // One statement per batch adds the requests and their feed entries together (ten works
      // queued at once make one batch, or two if the lane was still busy).
      expect(inserts.length).toBeLessThanOrEqual(2);
      for (const statement of inserts) expect(statement).toMatch(/^with "added_0" as \(insert into "blood_requests".*\) insert into "activities"/);
    } else expect(inserts).toHaveLength(10);
  });

  it('fails only the work whose row cannot be stored: the others keep the ids they were given', async () => {
    const marker = `reserved-fk ${Date.now()}`;
    const outcomes = await addRequests(marker, 6, 3);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const kept = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(await storedRequests(marker)).toEqual([...kept].sort((a, b) => a.id - b.id));
    expect(await messagesOf(marker)).toEqual([0, 1, 2, 4, 5].map((index) => `${marker} ${index}`));
  });

  it('inserts the row at once, and answers its id, when the work did not ask its batch for one', async () => {
    const marker = `unreserved ${Date.now()}`;
    const writes = writeTransactionsFor(t);
    const id = await writes.runAddingOnly((trx) => addRowWithId(trx, 'blood_requests', request(`${marker} 0`), insertBloodRequest));
    expect(await storedRequests(marker)).toEqual([{ id, reason: `${marker} 0` }]);
  });
});
