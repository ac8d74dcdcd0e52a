import crypto from 'node:crypto';
import pg from 'pg';
import { Kysely, type PostgresPool, type PostgresPoolClient } from 'kysely';
import { CurrentSchemaPostgresDialect } from './postgres-introspector';
import { counterChangeWatch, oneReadAtATime, postgresCounterTotals } from './change-versions';
import type { DatabaseHandle, DatabaseOptions } from './handle';
import type { DB } from './types';

// COUNT(*) and SUM come back from PostgreSQL as int8 strings; every count here fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/** PostgreSQL through a pool (DATABASE_URL): every commit waits for the disk, so no group commit here. */
export function openPostgres(options: DatabaseOptions & { databaseUrl: string }): DatabaseHandle {
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
    dialect: new CurrentSchemaPostgresDialect({ pool: withNamedStatements(pool) }),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    db,
    engine: 'postgres',
    changes: counterChangeWatch(oneReadAtATime(postgresCounterTotals(db))),
    onConnectionError: connectionErrors.listen,
    close: () => db.destroy(),
  };
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

/**
 * Queries with parameters, and selects without any (the change counters' read, made once per turn
 * of the event loop under load: planned again each time, it cost PostgreSQL's CPU on every read).
 */
const isNamed = (text: string, parameters: number) =>
  parameters > 0 ? parameters <= MAX_NAMED_PARAMETERS : /^select /i.test(text);

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
          typeof textOrCursor === 'string' && isNamed(textOrCursor, parameters?.length ?? 0)
            ? client.query({ name: nameOf(textOrCursor), text: textOrCursor, values: [...(parameters ?? [])] })
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

