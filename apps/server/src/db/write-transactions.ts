import {
  CompiledQuery,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type Transaction,
  type UnknownRow,
} from 'kysely';
import type { Database, Engine } from './database';
import { collectRowsOf, insertRows, type RowsAtCommit, type TableWithId } from './rows-at-commit';
import type { DB } from './types';

/**
 * How a request's changes are written: `run(work)` runs `work` in a transaction and resolves
 * once that transaction has committed, with work's value (or rejects with its error, nothing of
 * it written).
 */
export interface WriteTransactions {
  run<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
  /**
   * The same, for a work that only adds rows (and reads without locking): a patient's request, say.
   * On PostgreSQL such works run in batches of their own, beside the other writes' batch, each on
   * a connection of its own: they can wait for no lock another batch holds but a foreign key's
   * share lock, which no write takes away (decision 0014). An update, a delete or a locking read
   * in such a work fails with an error. On SQLite, `run`.
   *
   * `newRowIn`: the table the work adds one row to with addRowWithId (rows-at-commit.ts). On
   * PostgreSQL its batch takes an id for it from the table's sequence with the batch's first
   * statement, and the row is inserted with the batch's other rows at its end: the work itself
   * then waits for no round trip.
   */
  runAddingOnly<T>(work: (trx: Transaction<DB>) => Promise<T>, options?: { newRowIn?: TableWithId }): Promise<T>;
}

export function writeTransactionsFor(
  database: { db: Database; engine: Engine; syncCommits?: () => Promise<void> },
  /** Told once per batch that committed (and is on disk): a full disk has room again, say. */
  onCommitted?: () => void,
): WriteTransactions {
  if (database.engine === 'postgres') {
    const options = { beginBatch: lockCounterShard, onCommitted, savepointsFirst: false };
    const others = batchedWriteTransactions(database.db, options);
    // Works that only add rows: a batch of their own, running at once beside the others' batch.
    const addingOnly = batchedWriteTransactions(database.db.withPlugin(new AddingOnly()), {
      ...options,
      beginBatch: lockCounterShardAndReserveIds,
    });
    return {
      run: others.run,
      runAddingOnly: (work, runOptions) => addingOnly.run(work, runOptions?.newRowIn),
    };
  }
  const batches = batchedWriteTransactions(database.db, { syncCommits: database.syncCommits, onCommitted });
  return { run: (work) => batches.run(work), runAddingOnly: (work) => batches.run(work) };
}

/**
 * Refuses, before it reaches the database, any statement built with Kysely in an adding-only batch
 * but an insert or a select that locks nothing. Raw SQL is not checked (the batch's own counter
 * lock is raw SQL); the works themselves build their statements with Kysely.
 */
class AddingOnly implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const allowed =
      node.kind === 'InsertQueryNode' ||
      node.kind === 'RawNode' ||
      (node.kind === 'SelectQueryNode' && !node.endModifiers?.some((modifier) => modifier.modifier?.startsWith('For')));
    if (!allowed) throw new Error(`A write that only adds rows ran a ${node.kind}: use writes.run for it`);
    return node;
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

/**
 * PostgreSQL: the change counter row the batch's triggers will bump (migration 2026-11-21-0002) is
 * locked first, before any data: two transactions (of two instances) then never hold a data lock
 * and a counter lock in opposite orders.
 */
const COUNTER_SHARD_LOCK = sql`select 1 from change_counters where shard = (txid_current() % 16)::integer for no key update`;
const lockCounterShard = (trx: Transaction<DB>) => COUNTER_SHARD_LOCK.execute(trx);

/**
 * The same lock, and in the same statement one id from its table's sequence for each work that
 * adds a row with addRowWithId (sequences are outside transactions: a batch rolled back leaves a
 * gap, as a failed insert does).
 */
async function lockCounterShardAndReserveIds(trx: Transaction<DB>, batch: readonly QueuedWork[], rows: RowsAtCommit) {
  const counts = new Map<TableWithId, number>();
  for (const { newRowIn } of batch) if (newRowIn) counts.set(newRowIn, (counts.get(newRowIn) ?? 0) + 1);
  if (counts.size === 0) return lockCounterShard(trx);
  const wanted = sql.join([...counts].map(([table, count]) => sql`(${table}::text, ${count}::integer)`));
  const { rows: ids } = await sql<{ table_name: TableWithId; id: number }>`
    with locked as (${COUNTER_SHARD_LOCK})
    select wanted.name as table_name, nextval(pg_get_serial_sequence(wanted.name, 'id'))::integer as id
    from locked, (values ${wanted}) as wanted(name, count), generate_series(1, wanted.count)`.execute(trx);
  for (const [table, count] of counts) {
    const reserved = ids.filter((row) => row.table_name === table).map((row) => row.id);
    // A table without a sequence of its own gives null ids; a missing counter shard, none at all.
    if (reserved.length !== count || reserved.some((id) => typeof id !== 'number'))
      throw new Error(`Could not reserve ${count} ids in ${table} (got ${reserved.length}): does its id column have a sequence, and is the counter shard there?`);
    rows.reserveIds(table, reserved);
  }
}

export const SAVEPOINT_SQL = {
  set: 'savepoint request_write',
  release: 'release savepoint request_write',
  rollbackTo: 'rollback to savepoint request_write',
} as const;

/** At most this many requests' writes share one commit. */
const MAX_BATCH = 64;
/** A work failed by a deadlock with another instance runs at most this many times. */
const MAX_ATTEMPTS = 3;

interface QueuedWork {
  work: (trx: Transaction<DB>) => Promise<unknown>;
  /** The table the work adds a row to with addRowWithId, if any (WriteTransactions.runAddingOnly). */
  newRowIn?: TableWithId | undefined;
  attempts: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit, on both engines. What a commit costs is mostly waiting for the disk (PostgreSQL's
 * WAL flush; SQLite's log flush, db/sqlite.ts) and writing the changed pages, the same for one new
 * row as for fifty. So the writes that arrive together (those queued in the same turn of the event
 * loop, and those that arrive while the previous batch commits) share a transaction: each runs in a
 * savepoint of its own, one after another, so each sees the ones before it exactly as if they had
 * committed, and one that fails is rolled back alone. Nobody hears of a success before the shared
 * commit is on disk; if the commit fails, every one of them fails.
 *
 * One batch at a time per instance: its works run one after another on one connection, so no two
 * of them can deadlock. (Several batches at once on PostgreSQL were tried on 2026-11-26 and
 * dropped: a batch holds the locks of all its works until it commits, so two batches booking at
 * the same two sites in opposite orders deadlocked, and PostgreSQL took a second to notice;
 * docs/decisions/0011.) Batches of two instances on one PostgreSQL take the counter lock first and
 * then lock data as single requests did.
 */
function batchedWriteTransactions(
  db: Database,
  options: {
    /** Run first in each batch's transaction. */
    beginBatch?: (trx: Transaction<DB>, batch: readonly QueuedWork[], rows: RowsAtCommit) => Promise<unknown>;
    /** Resolves once the commits made so far are on disk, where a commit alone does not promise it (SQLite). */
    syncCommits?: (() => Promise<void>) | undefined;
    onCommitted?: (() => void) | undefined;
    /**
     * false: a batch runs first without savepoints, and only if one of its works fails is it rolled
     * back and run again with them. On PostgreSQL each savepoint and its release are a round trip
     * of their own, two of a request's four; works rarely fail. SQLite's savepoints cost nothing
     * like that (no round trip), and there one failed work would make the whole batch run twice.
     */
    savepointsFirst?: boolean;
  },
): { run<T>(work: (trx: Transaction<DB>) => Promise<T>, newRowIn?: TableWithId): Promise<T> } {
  const { beginBatch, syncCommits, onCommitted, savepointsFirst = true } = options;
  const queue: QueuedWork[] = [];
  // Compiled once: a batch sets and releases one per work.
  const compiled = new Map<string, CompiledQuery>(
    Object.values(SAVEPOINT_SQL).map((statement) => [statement, CompiledQuery.raw(statement)]),
  );
  const savepoint = (statement: string, trx: Transaction<DB>) => trx.executeQuery(compiled.get(statement)!);

  // The batch under way (one at a time; see above).
  let busy = false;
  let scheduled = false;
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    // After this turn's other requests have queued theirs.
    setImmediate(() => {
      scheduled = false;
      startBatch();
    });
  }

  /** Starts a batch of what is queued (at most MAX_BATCH works), unless one is under way. */
  function startBatch() {
    if (queue.length > 0 && !busy) {
      const batch = queue.splice(0, MAX_BATCH);
      busy = true;
      void runBatch(batch).finally(() => {
        busy = false;
        // What arrived meanwhile (or was queued again) runs at once.
        startBatch();
      });
    }
  }

  async function runBatch(batch: QueuedWork[]) {
    const outcomes = await commitBatch(batch);
    if (syncCommits && outcomes.some((outcome) => outcome.ok)) {
      // Nobody hears of a success before its commit is on disk: one flush for the whole batch,
      // whatever the method of the requests that wrote. The next batch runs meanwhile (its
      // commit follows this one's in the log, so it can never outlive it), and its flush is the
      // next one: the disk's wait and the next batch's work overlap.
      void syncCommits().then(
        () => settle(batch, outcomes),
        (flushError: unknown) => {
          for (const item of batch) item.reject(flushError);
        },
      );
      return;
    }
    settle(batch, outcomes);
  }

  /** Tells each caller of a committed (and flushed) batch its outcome; works to run again are queued first. */
  function settle(batch: QueuedWork[], outcomes: Outcome[]) {
    if (outcomes.some((outcome) => outcome.ok)) onCommitted?.();
    const again: QueuedWork[] = [];
    batch.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) item.resolve(outcome.value);
      else if (outcome.again && item.attempts < MAX_ATTEMPTS) again.push({ ...item, attempts: item.attempts + 1 });
      else item.reject(outcome.value);
    });
    if (again.length === 0) return;
    queue.unshift(...again);
    schedule();
  }

  /** One work in a transaction of its own. */
  const commitAlone = (item: QueuedWork): Promise<Outcome> =>
    db
      .transaction()
      .execute(async (trx) => {
        const { work } = item;
        const rows = collectRowsOf(trx);
        await beginBatch?.(trx, [item], rows);
        rows.beginWork();
        const value = await work(trx);
        await insertRows(trx, rows.takeWork());
        return value;
      })
      .then(
        (value): Outcome => ({ ok: true, value }),
        (error: unknown): Outcome => ({ ok: false, value: error, again: isTransientConflict(error) }),
      );

  /**
   * The batch in one transaction without savepoints: every work's outcome when all of them
   * succeeded (or the commit's error for each), undefined when one failed (all rolled back).
   */
  async function commitWithoutSavepoints(batch: QueuedWork[]): Promise<Outcome[] | undefined> {
    const values: unknown[] = [];
    let workFailed = false;
    try {
      await db.transaction().execute(async (trx) => {
        const rows = collectRowsOf(trx);
        await beginBatch?.(trx, batch, rows);
        try {
          for (const { work } of batch) {
            rows.beginWork();
            values.push(await work(trx));
            rows.keepWork();
          }
          await insertRows(trx, rows.takeKept());
        } catch (error) {
          // A work failed, or the rows they added did: which one is found with savepoints.
          workFailed = true;
          throw error;
        }
      });
    } catch (error) {
      if (workFailed) return undefined;
      return batch.map(() => ({ ok: false, value: error, again: isTransientConflict(error) }));
    }
    return values.map((value) => ({ ok: true, value }));
  }

  /** Runs the batch in one transaction: each work's outcome, or the commit's error for every work. */
  async function commitBatch(batch: QueuedWork[]): Promise<Outcome[]> {
    if (batch.length === 1) return [await commitAlone(batch[0]!)];
    if (!savepointsFirst) {
      const outcomes = await commitWithoutSavepoints(batch);
      if (outcomes) return outcomes;
      // Run again with savepoints, each work inserting its own rows inside its savepoint.
      // ('each work' always gives every work's outcome.)
      return (await commitWithSavepoints(batch, 'each work'))!;
    }
    // The rows of the whole batch at its end; should that fail, again with each work's own rows.
    return (await commitWithSavepoints(batch, 'at the end')) ?? (await commitWithSavepoints(batch, 'each work'))!;
  }

  /**
   * The batch in one transaction, each work in a savepoint. The rows the works added for the end
   * (rows-at-commit.ts) are inserted 'at the end' of the batch (undefined if that fails, all rolled
   * back) or by 'each work' inside its savepoint, where one that fails fails only its work.
   */
  async function commitWithSavepoints(batch: QueuedWork[], rowsInserted: 'at the end' | 'each work'): Promise<Outcome[] | undefined> {
    const outcomes: Outcome[] = [];
    let rowsFailed = false;
    try {
      await db.transaction().execute(async (trx) => {
        const rows = collectRowsOf(trx);
        await beginBatch?.(trx, batch, rows);
        for (const { work } of batch) {
          await savepoint(SAVEPOINT_SQL.set, trx);
          rows.beginWork();
          try {
            const value = await work(trx);
            if (rowsInserted === 'each work') await insertRows(trx, rows.takeWork());
            else rows.keepWork();
            await savepoint(SAVEPOINT_SQL.release, trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            rows.dropWork();
            // SQLite rolled the whole transaction back by itself (a full disk, an I/O error): no
            // savepoint is left to roll back to, and every work of the batch fails with it.
            try {
              await savepoint(SAVEPOINT_SQL.rollbackTo, trx);
            } catch {
              throw error;
            }
            await savepoint(SAVEPOINT_SQL.release, trx);
            // PostgreSQL broke a deadlock with another instance's batch by failing this work, through
            // no fault of its own; the locks the works before it took are still held, so it runs
            // again once this batch has committed (in the next one).
            outcomes.push({ ok: false, value: error, again: isTransientConflict(error) });
          }
        }
        if (rowsInserted === 'at the end') {
          try {
            await insertRows(trx, rows.takeKept());
          } catch (error) {
            rowsFailed = true;
            throw error;
          }
        }
      });
    } catch (commitError) {
      if (rowsFailed) return undefined;
      return batch.map((_, index) =>
        outcomes[index]?.ok === false ? outcomes[index] : { ok: false, value: commitError },
      );
    }
    return outcomes;
  }

  return {
    run<T>(work: (trx: Transaction<DB>) => Promise<T>, newRowIn?: TableWithId) {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, newRowIn, attempts: 1, resolve: resolve as (value: unknown) => void, reject });
        if (!busy) schedule();
      });
    },
  };
}

interface Outcome {
  ok: boolean;
  value: unknown;
  /** Run the work again in the next batch. */
  again?: boolean;
}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction may simply be tried again. */
function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}
