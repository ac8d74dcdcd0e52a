import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type LogConfig,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
  type Transaction,
} from 'kysely';
import { ensurePrivateFile } from '../lib/private-files';
import { postgresChangeWatch, sqliteChangeWatch, type ChangeWatch } from './change-versions';
import { migrationProvider } from './migrations/index';
import { schemaVersionOf, statementEffects, type StatementEffect } from './sqlite-statement-effects';
import type { ConnectionStatements } from './write-transactions';
import type { DB } from './types';

export type Database = Kysely<DB>;
export type DatabaseOrTransaction = Kysely<DB> | Transaction<DB>;
export type Engine = 'sqlite' | 'postgres';

// COUNT(*) and SUM come back from PostgreSQL as int8 strings; every count here fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

export interface DatabaseOptions {
  /** postgres://… switches to PostgreSQL; otherwise SQLite at sqliteFile. */
  databaseUrl?: string | undefined;
  sqliteFile?: string;
  /** PostgreSQL only: a schema to work in (tests give each file its own). */
  pgSchema?: string;
  poolSize?: number;
  /** Kysely's query log (the query-plan test collects the SQL each route runs). */
  log?: LogConfig;
}

export interface DatabaseHandle {
  db: Database;
  engine: Engine;
  /** Whether anything changed since: what reused answers check (db/change-versions.ts). */
  changes: ChangeWatch;
  /**
   * Resolves once every commit made so far is on disk, for engines where a commit alone does not
   * promise it (SQLite here, see openDatabase); a write is acknowledged only after it. Undefined
   * where every commit already waits for the disk (PostgreSQL).
   */
  syncCommits?: () => Promise<void>;
  /** SQLite: resolves once the log flush running now, if any, has finished (never rejects). */
  runningFlush?: () => Promise<void>;
  /** SQLite: statements run straight on the connection, for the write batches (db/write-transactions.ts). */
  connection?: ConnectionStatements;
  /** PostgreSQL: told of each error of a connection that no query was waiting on. */
  onConnectionError?: (listener: (error: Error) => void) => void;
  close: () => Promise<void>;
}

/** Without a listener (a CLI), one line on stderr: such an error must never end the process. */
function connectionErrorListeners() {
  const listeners: ((error: Error) => void)[] = [];
  return {
    listen: (listener: (error: Error) => void) => void listeners.push(listener),
    emit: (error: Error) => {
      if (listeners.length === 0) console.error(`Database connection lost: ${error.message}`);
      for (const listener of listeners) listener(error);
    },
  };
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // While PostgreSQL is unreachable, a request waits at most this long for a connection, then 503.
      connectionTimeoutMillis: 5_000,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const connectionErrors = connectionErrorListeners();
    // A connection's error with no query waiting on it (its backend terminated, an idle-session
    // timeout, a dropped TCP connection) is emitted as an event: unheard, it would end the process.
    // The pool hears its idle connections; a connection checked out between two queries of a
    // transaction is heard here too. pg-pool drops the broken connection and opens new ones on demand.
    pool.on('error', connectionErrors.emit);
    pool.on('connect', (client) => client.on('error', connectionErrors.emit));
    const db = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: withNamedStatements(pool) }),
      ...(options.log ? { log: options.log } : {}),
    });
    return {
      db,
      engine: 'postgres',
      changes: postgresChangeWatch(db),
      onConnectionError: connectionErrors.listen,
      close: () => db.destroy(),
    };
  }
  const file = options.sqliteFile;
  if (!file) throw new Error('openDatabase: sqliteFile is required without a databaseUrl');
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
  const dataVersion = sqlite.prepare<[], number>('pragma data_version').pluck();
  // Inside a transaction it would answer from that transaction's snapshot (no write batch spans a
  // turn of the event loop today, so none is open when a request asks; if one ever is, every
  // answer computes again rather than risk a stale one).
  const changes = sqliteChangeWatch(
    () => (sqlite.inTransaction ? undefined : dataVersion.get()),
    () => statements.otherWriterCommitted(),
  );
  // Statements this connection has run that change data (commits among them).
  let writes = 0;
  // Each statement tells the change watch which tables it changes as it runs, before its commit.
  const statements = withStatementCache(sqlite, (effect) => {
    if (effect.writes) writes += 1;
    if (effect.tables.length > 0) changes.changed(effect.tables);
  });
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: statements }),
    ...(options.log ? { log: options.log } : {}),
  });
  const log = writeAheadLogSync(`${file}-wal`, () => writes);
  // The same cached statements Kysely runs, bound to an array of values as Kysely binds them.
  const statement = (text: string) => statements.prepare(text) as SQLite.Statement;
  return {
    db,
    engine: 'sqlite',
    changes,
    syncCommits: log.sync,
    runningFlush: log.running,
    connection: {
      run: (text, parameters = []) => statement(text).run(parameters),
      inTransaction: () => sqlite.inTransaction,
    },
    close: async () => {
      // This connection's writes are flushed first: while another process holds the file open
      // (a CLI's writes, with the server running), closing does not checkpoint, and they would
      // wait in the log unflushed. Closing the last connection checkpoints the log into the
      // database file and flushes both.
      await log.sync();
      await log.close();
      await db.destroy();
    },
  };
}

/**
 * PostgreSQL parses and plans every unnamed query again; a named one is prepared once per
 * connection and then only bound and run (PostgreSQL still plans with the actual values for the
 * first executions and keeps a generic plan only when it is no worse). Queries with parameters
 * (everything the app asks; not BEGIN, COMMIT or DDL) get a name derived from their text, so the
 * same text always has the same name and pg refuses a name reused for another text. Long `in (…)`
 * lists and multi-row inserts, whose text varies with their length, stay unnamed: each connection
 * keeps what it prepared.
 */
const MAX_NAMED_PARAMETERS = 24;

function withNamedStatements(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) {
      if (names.size >= STATEMENT_CACHE_SIZE) names.clear();
      name = `k${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        const query = (textOrCursor: unknown, parameters?: readonly unknown[]) =>
          typeof textOrCursor === 'string' &&
          parameters &&
          parameters.length > 0 &&
          parameters.length <= MAX_NAMED_PARAMETERS
            ? client.query({ name: nameOf(textOrCursor), text: textOrCursor, values: [...parameters] })
            : (client.query as (...args: unknown[]) => unknown)(textOrCursor, parameters);
        wrapped = { query: query as PostgresPoolClient['query'], release: () => client.release() };
        clients.set(client, wrapped);
      }
      return wrapped;
    },
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
function withStatementCache(
  sqlite: SQLite.Database,
  onRun: (effect: StatementEffect) => void,
): SqliteDatabase & { otherWriterCommitted(): void } {
  // What a statement changes is decided once, when it is prepared, not on every run; and again
  // after the schema changed (a migration may have added a trigger, say): this connection's own
  // DDL tells, and so does the schema version once another writer has committed.
  const effectOf = statementEffects(sqlite);
  let schemaChanges = 0;
  let lastSchemaVersion = schemaVersionOf(sqlite);
  const statements = new Map<
    string,
    { statement: SQLite.Statement; effect: StatementEffect; schemaChanges: number }
  >();
  let noTransactionToRollBack: SQLite.Statement | undefined;
  const ran = (effect: StatementEffect) => {
    if (effect.changesSchema) schemaChanges += 1;
    if (effect.writes) onRun(effect);
  };
  return {
    close: () => sqlite.close(),
    otherWriterCommitted() {
      if (sqlite.inTransaction) return; // read again at the next commit of theirs
      const version = schemaVersionOf(sqlite);
      if (version !== lastSchemaVersion) {
        lastSchemaVersion = version;
        schemaChanges += 1;
      }
    },
    prepare(sqlText: string) {
      // After a full disk or an I/O error SQLite has already rolled the transaction back; the
      // ROLLBACK Kysely then sends would fail ("no transaction is active") and hide the real error.
      if (sqlText === 'rollback' && !sqlite.inTransaction) return (noTransactionToRollBack ??= sqlite.prepare('select 1 where 0'));
      const cached = statements.get(sqlText);
      if (cached && !cached.statement.busy) {
        // Least recently used first: move this one to the end.
        statements.delete(sqlText);
        statements.set(sqlText, cached);
        if (cached.schemaChanges !== schemaChanges) {
          cached.effect = effectOf(cached.statement, sqlText);
          cached.schemaChanges = schemaChanges;
        }
        ran(cached.effect);
        return cached.statement;
      }
      const statement = sqlite.prepare(sqlText);
      const effect = effectOf(statement, sqlText);
      ran(effect);
      if (!cached) {
        statements.set(sqlText, { statement, effect, schemaChanges });
        if (statements.size > STATEMENT_CACHE_SIZE)
          statements.delete(statements.keys().next().value as string);
      }
      return statement;
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

/** Runs every pending migration; throws (and the caller exits non-zero) on the first failure. */
export async function migrateToLatest(db: Database, options: { pgSchema?: string } = {}): Promise<string[]> {
  // With a schema of its own, the migrator must keep its bookkeeping tables there too: otherwise it
  // finds another schema's tables by introspection and never creates its own.
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    ...(options.pgSchema ? { migrationTableSchema: options.pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error ?? 'unknown error'));
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
  return (results ?? []).map((result) => result.migrationName);
}

/** Current instant as stored: ISO-8601 UTC. */
export const nowIso = () => new Date().toISOString();
