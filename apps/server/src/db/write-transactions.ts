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

/**
 * The savepoint statements of a SQLite write batch, run straight on the connection
 * (db/database.ts): two or three per write, each otherwise a full Kysely round trip (about as
 * costly as one of the write's own inserts).
 */
export interface Savepoints {
  set(): void;
  release(): void;
  rollbackTo(): void;
}

export function writeTransactionsFor(database: {
  db: Database;
  engine: Engine;
  savepoints?: Savepoints;
}): WriteTransactions {
  if (database.engine === 'postgres') return counterFirstTransactions(database.db);
  if (!database.savepoints) throw new Error("SQLite's write batches need the connection's savepoint statements");
  return batchedWriteTransactions(database.db, database.savepoints);
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
function batchedWriteTransactions(db: Database, savepoints: Savepoints): WriteTransactions {
  const queue: QueuedWork[] = [];
  let draining = false;

  async function drain() {
    try {
      await drainQueue();
    } finally {
      draining = false;
    }
  }

  async function drainQueue() {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      if (batch.length === 1) {
        const [only] = batch as [QueuedWork];
        await db.transaction().execute(only.work).then(only.resolve, only.reject);
        continue;
      }
      const outcomes: { ok: boolean; value: unknown }[] = [];
      try {
        await db.transaction().execute(async (trx) => {
          // Straight on the connection this transaction holds (synchronous: no other query can run
          // in between).
          for (const { work } of batch) {
            savepoints.set();
            try {
              const value = await work(trx);
              savepoints.release();
              outcomes.push({ ok: true, value });
            } catch (error) {
              savepoints.rollbackTo();
              savepoints.release();
              outcomes.push({ ok: false, value: error });
            }
          }
        });
      } catch (commitError) {
        batch.forEach((item, index) =>
          item.reject(outcomes[index]?.ok === false ? outcomes[index].value : commitError),
        );
        continue;
      }
      batch.forEach((item, index) =>
        (outcomes[index]!.ok ? item.resolve : item.reject)(outcomes[index]!.value),
      );
    }
  }

  return {
    run<T>(work: (trx: Transaction<DB>) => Promise<T>) {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (!draining) {
          draining = true;
          // After this turn's other requests have queued theirs.
          setImmediate(() => void drain());
        }
      });
    },
  };
}
