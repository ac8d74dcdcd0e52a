import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import { ensurePrivateFile } from '../lib/private-files';
import { SQLITE_UNICODE_LOWER } from './contains-text';
import { counterChangeWatch, totalsInTableOrder, VERSIONED_TABLES, type CounterTotals } from './change-versions';
import { backgroundCheckpoints } from './sqlite-checkpoints';
import type { DatabaseHandle, DatabaseOptions } from './handle';
import type { DB } from './types';

/** The embedded database: one SQLite file under DATA_DIR, one connection, group commit. */
export function openSqlite(options: DatabaseOptions & { sqliteFile: string }): DatabaseHandle {
  const file = options.sqliteFile;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  ensurePrivateFile(file, [`${file}-wal`, `${file}-shm`]);
  const sqlite = new SQLite(file);
  // WAL lets readers run beside the writer. Durability is group commit: a commit is written to the
  // log without waiting for the disk (NORMAL), and syncCommits flushes the log once for all the
  // commits made meanwhile, off the event loop, before any of them is acknowledged. With FULL,
  // each commit held the whole server still for its own flush.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // A write batch runs each request's work in a savepoint (write-transactions.ts), and SQLite keeps
  // the pages a savepoint may have to put back in a statement journal: a temporary file by default,
  // written with a system call per page. In memory it costs a copy (measured: a booking used about
  // a quarter less CPU).
  sqlite.pragma('temp_store = MEMORY');
  // What a write removes is overwritten in its page, not left as free bytes: a sent e-mail's
  // message (a reset link's token among them) is forgotten from the file too, and from its copies
  // (npm run backup copies pages as they are). FAST costs no extra page writes.
  sqlite.pragma('secure_delete = FAST');
  // Checkpoints run beside the requests, in a worker thread (sqlite-checkpoints.ts).
  sqlite.pragma('wal_autocheckpoint = 0');
  // Once a checkpoint has caught up, the next commit starts the log again from its beginning; the
  // log is then cut to that commit's length, not left the length of the largest batch so far with
  // old frames after it. Those held pages as they were: a sent password-reset link, forgotten from
  // the database (secure_delete above), was still usable from a copy of DATA_DIR.
  sqlite.pragma('journal_size_limit = 0');
  // For searches typed in letters beyond A to Z (db/contains-text.ts). No index or stored value
  // depends on it, so other connections (the CLIs, the sqlite3 shell) need not have it.
  sqlite.function(SQLITE_UNICODE_LOWER, { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  const checkpoints = backgroundCheckpoints(file, reportCheckpointError());
  // Statements this connection has run that may change data (commits among them). Each also makes
  // the change watch read the counters again: a request handled later in the same turn of the event
  // loop (in-process, as the tests' inject does) must see this process's own write.
  let writes = 0;
  const changes = counterChangeWatch(sqliteCounterTotals(sqlite, () => writes));
  const statements = withStatementCache(sqlite, () => {
    writes += 1;
    changes.forget();
    checkpoints.wrote();
  });
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: statements }),
    ...(options.log ? { log: options.log } : {}),
  });
  const log = writeAheadLogSync(`${file}-wal`, () => writes);
  let closing: Promise<void> | undefined;
  return {
    db,
    engine: 'sqlite',
    changes,
    syncCommits: log.sync,
    // Once: the app and the process that opened the handle may both close it (npm run seed:demo).
    close: () => (closing ??= closeOnce()),
  };
  async function closeOnce(): Promise<void> {
    // This connection's writes are flushed first: while another process holds the file open
    // (a CLI's writes, with the server running), closing does not checkpoint, and they would
    // wait in the log unflushed. Closing the last connection checkpoints the log into the
    // database file and flushes both.
    // Each step runs even when one before it failed (a log that cannot be flushed must not leave
    // the checkpoint thread and the connection open); the first failure is what close reports.
    try {
      await log.sync();
    } finally {
      try {
        await log.close();
      } finally {
        try {
          await checkpoints.stop();
        } finally {
          await db.destroy();
        }
      }
    }
  }
}

/** A checkpoint that fails (a full disk, say) is said once on stderr until one succeeds; the log keeps every commit meanwhile. */
function reportCheckpointError() {
  let last: string | undefined;
  return (message: string | undefined) => {
    if (message === undefined) {
      last = undefined;
      return;
    }
    if (message !== last) console.error(`SQLite checkpoint failed (the log keeps every commit; retried after the next write): ${message}`);
    last = message;
  };
}

/**
 * The change counters, read synchronously on the server's own connection: a read outside any
 * transaction sees every commit made so far, by this connection or any other process. Inside a
 * transaction (a write batch spans turns of the event loop) it would see that transaction's own
 * uncommitted bumps, which a rollback would take back: undefined then, counted as a change. So is
 * a database whose migrations have not run yet.
 *
 * Read again only when something may have been committed since the last read: this connection
 * wrote (`writesSoFar` moved), or another connection committed (SQLite's `data_version` moved, a
 * check of the log's index in shared memory). Otherwise the last totals stand. A reused read
 * answers with no request waiting for another to batch with it, and reading the counters row cost
 * 9 µs where data_version costs 2: under a steady read load with one request per turn of the event
 * loop, a sixth of an admin list's CPU (docs/performance.md, 2026-11-27, evening).
 */
export function sqliteCounterTotals(sqlite: SQLite.Database, writesSoFar: () => number): () => CounterTotals | undefined {
  let dataVersion: SQLite.Statement<[], number> | undefined;
  let read: SQLite.Statement<[], number[]> | undefined;
  let last: { otherCommits: number; ownWrites: number; totals: CounterTotals } | undefined;
  return () => {
    if (sqlite.inTransaction) return undefined;
    // data_version before the counters: a commit that lands between the two only makes the next
    // call read again, never keeps it from doing so.
    dataVersion ??= sqlite.prepare<[], number>('pragma data_version').pluck();
    const otherCommits = dataVersion.get()!;
    const ownWrites = writesSoFar();
    if (last?.otherCommits === otherCommits && last.ownWrites === ownWrites) return last.totals;
    // Columns by position (an array costs about half of an object with seventeen keys).
    read ??= sqlite.prepare<[], number[]>(`select ${VERSIONED_TABLES.join(', ')} from change_counters where shard = 0`).raw(true);
    const totals = totalsInTableOrder(read.get()!);
    last = { otherCommits, ownWrites, totals };
    return totals;
  };
}

/** Distinct SQL texts kept prepared; the app has a few dozen, `in (…)` lists of every length add more. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query again before running it; preparing (parsing and planning the SQL)
 * costs more than running a primary-key lookup. This keeps the prepared statements of the most
 * recently used SQL texts and hands them out again: better-sqlite3 statements are reusable, and
 * SQLite re-prepares one by itself if the schema changes. A statement still being iterated (a
 * streamed query) is busy, so a fresh one is prepared for the overlapping use.
 */
function withStatementCache(sqlite: SQLite.Database, onWrite: () => void): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  let noTransactionToRollBack: SQLite.Statement | undefined;
  const ran = (statement: SQLite.Statement) => {
    // better-sqlite3 knows whether a statement may write: what decides if a flush is owed.
    // Counted as the statement is handed out, before it runs: Kysely's SQLite driver runs it at
    // once, in the same synchronous call, so no read of the change counters (sqliteCounterTotals)
    // can fall between the count and the write it stands for.
    if (!statement.readonly) onWrite();
    return statement;
  };
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      // After a full disk or an I/O error SQLite has already rolled the transaction back; the
      // ROLLBACK Kysely then sends would fail ("no transaction is active") and hide the real error.
      if (sqlText === 'rollback' && !sqlite.inTransaction) return (noTransactionToRollBack ??= sqlite.prepare('select 1 where 0'));
      const cached = statements.get(sqlText);
      if (cached && !cached.busy) {
        // Least recently used first: move this one to the end.
        statements.delete(sqlText);
        statements.set(sqlText, cached);
        return ran(cached);
      }
      const statement = sqlite.prepare(sqlText);
      if (!cached) {
        statements.set(sqlText, statement);
        if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      }
      return ran(statement);
    },
  };
}

/**
 * Group commit for SQLite in WAL mode with synchronous = NORMAL: SQLite has written each commit to
 * the write-ahead log (in the OS's cache) by the time it returns, and flushes the log itself only
 * at checkpoints. sync() flushes the log file (fdatasync, in libuv's thread pool) and resolves once
 * a flush that began after the caller's commits has finished; callers that arrive during a flush
 * share the next one. Only this connection's own writes need a flush before they are acknowledged
 * (another process flushes its own, at the latest when it closes the database), so they are
 * counted as they run: when nothing was written since the last flush, sync() is a comparison,
 * not a query.
 */
function writeAheadLogSync(walFile: string, writesSoFar: () => number) {
  let handle: Promise<fs.promises.FileHandle> | undefined;
  let flushedUpTo = 0;
  let flushing: Promise<void> | undefined;

  const flush = async () => {
    const upTo = writesSoFar();
    handle ??= fs.promises.open(walFile, 'r+');
    try {
      await (await handle).datasync();
    } catch (error) {
      handle = undefined; // open again next time
      throw error;
    }
    flushedUpTo = Math.max(flushedUpTo, upTo);
  };

  return {
    async sync(): Promise<void> {
      // A request that follows the acknowledgement sees the write: the change watch counts this
      // connection's writes as they run (above).
      const target = writesSoFar();
      while (flushedUpTo < target) {
        // A flush already running may have begun before these commits: wait for it, then flush again.
        flushing ??= flush().finally(() => (flushing = undefined));
        await flushing;
      }
    },
    running: async (): Promise<void> => {
      await flushing?.catch(() => {});
    },
    async close(): Promise<void> {
      await flushing?.catch(() => {});
      if (handle) await (await handle).close();
    },
  };
}

