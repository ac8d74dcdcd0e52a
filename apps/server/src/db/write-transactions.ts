import { sql, type Transaction } from 'kysely';
import type { Database, Engine } from './database';
import type { DB } from './types';

/**
 * How a request's changes are written: `run(work)` runs `work` in a transaction and resolves
 * once that transaction has committed, with work's value (or rejects with its error, nothing of
 * it written).
 */
export interface WriteTransactions {
  run<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
}

export function writeTransactionsFor(database: {
  db: Database;
  engine: Engine;
  syncCommits?: () => Promise<void>;
}): WriteTransactions {
  if (database.engine === 'postgres') return counterFirstTransactions(database.db);
  return batchedWriteTransactions(database.db, database.syncCommits ?? (() => Promise.resolve()));
}

/**
 * PostgreSQL: each request its own transaction, side by side on the pool. The change counter row
 * the transaction's triggers will bump (migration 2026-11-21-0002) is locked first, before any
 * data: two transactions then never hold a data lock and a counter lock in opposite orders.
 */
function counterFirstTransactions(db: Database): WriteTransactions {
  return {
    run: (work) =>
      db.transaction().execute(async (trx) => {
        await sql`select 1 from change_counters where shard = (txid_current() % 16)::integer for no key update`.execute(
          trx,
        );
        return work(trx);
      }),
  };
}

export const SAVEPOINT_SQL = {
  set: 'savepoint request_write',
  release: 'release savepoint request_write',
  rollbackTo: 'rollback to savepoint request_write',
} as const;

/** At most this many requests' writes share one commit. */
const MAX_BATCH = 64;

interface QueuedWork {
  work: (trx: Transaction<DB>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * SQLite has one writer, and what a commit costs is mostly writing the changed pages (the table's
 * and each index's) to the log, the same for one new row as for fifty. So the writes that arrive
 * together (those queued in the same turn of the event loop) share a transaction: each runs in a
 * savepoint of its own, one after another, so each sees the ones before it exactly as if they had
 * committed, and one that fails is rolled back alone. Nobody hears of a success before the shared
 * commit has succeeded; if the commit fails, every one of them fails.
 *
 * On PostgreSQL, where transactions run side by side on a pool, each request has its own.
 */
function batchedWriteTransactions(db: Database, syncCommits: () => Promise<void>): WriteTransactions {
  const queue: QueuedWork[] = [];
  let draining = false;
  const savepoint = (statement: string, trx: Transaction<DB>) => sql.raw(statement).execute(trx);

  async function drain() {
    try {
      await drainQueue();
    } finally {
      draining = false;
      // Work queued after the loop found the queue empty (by a caller that wrote again as soon as
      // its first write resolved) would otherwise wait for the next, unrelated write.
      if (queue.length > 0) schedule();
    }
  }
  function schedule() {
    draining = true;
    // After this turn's other requests have queued theirs.
    setImmediate(() => void drain());
  }

  async function drainQueue() {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      const outcomes = await commitBatch(batch);
      // Nobody hears of a success before its commit is on disk: one flush for the whole batch,
      // whatever the method of the requests that wrote. Writes arriving meanwhile wait for it, and
      // then share the next commit.
      if (outcomes.some((outcome) => outcome.ok)) {
        try {
          await syncCommits();
        } catch (flushError) {
          for (const item of batch) item.reject(flushError);
          continue;
        }
      }
      batch.forEach((item, index) => {
        const outcome = outcomes[index]!;
        if (outcome.ok) item.resolve(outcome.value);
        else item.reject(outcome.value);
      });
    }
  }

  /** Runs the batch in one transaction: each work's outcome, or the commit's error for every work. */
  async function commitBatch(batch: QueuedWork[]): Promise<Outcome[]> {
    if (batch.length === 1) {
      return db
        .transaction()
        .execute(batch[0]!.work)
        .then(
          (value): Outcome[] => [{ ok: true, value }],
          (error: unknown): Outcome[] => [{ ok: false, value: error }],
        );
    }
    const outcomes: Outcome[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const { work } of batch) {
          await savepoint(SAVEPOINT_SQL.set, trx);
          try {
            const value = await work(trx);
            await savepoint(SAVEPOINT_SQL.release, trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            // SQLite rolled the whole transaction back by itself (a full disk, an I/O error): no
            // savepoint is left to roll back to, and every work of the batch fails with it.
            try {
              await savepoint(SAVEPOINT_SQL.rollbackTo, trx);
            } catch {
              throw error;
            }
            await savepoint(SAVEPOINT_SQL.release, trx);
            outcomes.push({ ok: false, value: error });
          }
        }
      });
    } catch (commitError) {
      return batch.map((_, index) => (outcomes[index]?.ok === false ? outcomes[index] : { ok: false, value: commitError }));
    }
    return outcomes;
  }

  return {
    run<T>(work: (trx: Transaction<DB>) => Promise<T>) {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (!draining) schedule();
      });
    },
  };
}

interface Outcome {
  ok: boolean;
  value: unknown;
}
