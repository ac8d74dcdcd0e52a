import { sql, type Transaction } from 'kysely';
import type { Database, DatabaseOrTransaction, Engine } from './database';
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
 * SQLite: statements run straight on the connection (db/database.ts), synchronously, without
 * Kysely's round trip (which costs more than a one-row insert). Only safe where nothing else can
 * be using the connection: inside a write batch's transaction, which holds it (see below).
 */
export interface ConnectionStatements {
  /** Runs a statement for its effect; an INSERT's new row is the connection's last insert rowid. */
  run(
    sqlText: string,
    parameters?: readonly unknown[],
  ): { changes: number; lastInsertRowid: number | bigint };
  /** False once SQLite has ended the transaction by itself (a full disk, an I/O error). */
  inTransaction(): boolean;
}

export function writeTransactionsFor(database: {
  db: Database;
  engine: Engine;
  connection?: ConnectionStatements;
  runningFlush?: () => Promise<void>;
}): WriteTransactions {
  if (database.engine === 'postgres') return counterFirstTransactions(database.db);
  if (!database.connection) throw new Error("SQLite's write batches need the connection's own statements");
  return batchedWriteTransactions(database.db, database.connection, database.runningFlush);
}

/** The SQLite write transactions whose work is running now, each with its connection's statements. */
const runningBatches = new WeakMap<DatabaseOrTransaction, ConnectionStatements>();

/**
 * The connection's own statements when `db` is the transaction of a SQLite write batch, for the
 * hot writes to run straight on it (db/prepared-insert.ts); undefined anywhere else (PostgreSQL,
 * reads, a transaction of Kysely's own), where Kysely must run them. The batch holds the
 * connection from BEGIN to COMMIT and runs one work at a time, so a statement run directly lands
 * in that work's savepoint, in order with the Kysely queries the work awaits around it.
 */
export function connectionStatementsOf(db: DatabaseOrTransaction): ConnectionStatements | undefined {
  return runningBatches.get(db);
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
function batchedWriteTransactions(
  db: Database,
  connection: ConnectionStatements,
  runningFlush: (() => Promise<void>) | undefined,
): WriteTransactions {
  const queue: QueuedWork[] = [];
  let draining = false;
  const savepoints = {
    set: () => connection.run(SAVEPOINT_SQL.set),
    release: () => connection.run(SAVEPOINT_SQL.release),
    rollbackTo: () => connection.run(SAVEPOINT_SQL.rollbackTo),
  };
  /** Runs `body` in a transaction in which the hot writes may use the connection directly. */
  const inTransaction = <T>(body: (trx: Transaction<DB>) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      runningBatches.set(trx, connection);
      try {
        return await body(trx);
      } finally {
        runningBatches.delete(trx);
      }
    });

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
      // While the log is being flushed (the previous batch waits for it before it is acknowledged),
      // the writes arriving meanwhile wait too, and then share one commit: fewer, larger commits.
      await runningFlush?.();
      const batch = queue.splice(0, MAX_BATCH);
      if (batch.length === 1) {
        const [only] = batch as [QueuedWork];
        await inTransaction(only.work).then(only.resolve, only.reject);
        continue;
      }
      const outcomes: { ok: boolean; value: unknown }[] = [];
      try {
        await inTransaction(async (trx) => {
          // Straight on the connection this transaction holds (synchronous: no other query can run
          // in between).
          for (const { work } of batch) {
            savepoints.set();
            try {
              const value = await work(trx);
              savepoints.release();
              outcomes.push({ ok: true, value });
            } catch (error) {
              // SQLite rolled the whole transaction back (a full disk): every work of it fails so.
              if (!connection.inTransaction()) throw error;
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
        if (!draining) schedule();
      });
    },
  };
}
