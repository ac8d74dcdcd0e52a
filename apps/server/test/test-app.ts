import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import type { LogConfig } from 'kysely';
import { AsyncLocalStorage } from 'node:async_hooks';
import { buildApp } from '../src/app';
import { DERIVED_TABLES, type VersionedTable } from '../src/db/change-versions';
import { loadConfig, type Config } from '../src/config';
import { migrateToLatest, openDatabase, type Database, type Engine } from '../src/db/database';
import { createClock, type Clock } from '../src/lib/clock';

/**
 * A real app on a fresh, migrated database: a temp SQLite file, or (when TEST_DATABASE_URL is set)
 * a schema of its own on PostgreSQL. Tests talk to it through app.inject, never a port.
 */
export interface TestApp {
  app: FastifyInstance;
  db: Database;
  engine: Engine;
  config: Config;
  clock: TestClock;
  /** With `checkCacheReads`: what each reused answer declared, computed and read beyond that. */
  cacheReads?: CacheReads;
  /** On PostgreSQL, the app's schema: a second instance can be opened on the same data. */
  pgSchema?: string;
  close: () => Promise<void>;
}

export interface CacheReads {
  /** Every cache the app made, with the tables it declares. */
  declared: Map<object, readonly VersionedTable[]>;
  /** The caches that computed at least once. */
  computed: Set<object>;
  /** Queries run by a computation that read a table its cache did not declare. */
  undeclared: { declared: readonly VersionedTable[]; table: string; sql: string }[];
}

export interface TestClock extends Clock {
  /** Moves "now" (and so "today") to this instant; pass undefined to follow real time again. */
  set(instant: Date | string | undefined): void;
}

export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const testEngine: Engine = testDatabaseUrl ? 'postgres' : 'sqlite';

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Start the clock at this instant. */
  now?: Date | string;
  /** Capture the app's logs (at LOG_LEVEL, default silent) into this stream. */
  logStream?: NodeJS.WritableStream;
  /** Called with every SQL query the app runs (the query-plan test EXPLAINs them). */
  queryLog?: (sql: string, parameters: readonly unknown[]) => void;
  /** Check that each reused answer reads only the tables it declares (test/performance/cache-reads.test.ts). */
  checkCacheReads?: boolean;
}

/** The tables a query names after from, join, into or update (Kysely quotes every identifier). */
const TABLE_REFERENCE = /\b(?:from|join|into|update)\s+"(\w+)"/gi;

/** Runs statements on TEST_DATABASE_URL outside any test app's schema, on a connection of their own. */
export async function onTestDatabase(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    ...options.env,
  });

  let fixed: Date | undefined = options.now ? new Date(options.now) : undefined;
  const baseClock = createClock(config.timezone, () => fixed ?? new Date());
  const clock: TestClock = {
    ...baseClock,
    set: (instant) => (fixed = instant ? new Date(instant) : undefined),
  };

  const queryLog = options.queryLog;
  const computing = new AsyncLocalStorage<readonly VersionedTable[]>();
  const cacheReads: CacheReads | undefined = options.checkCacheReads
    ? { declared: new Map(), computed: new Set(), undeclared: [] }
    : undefined;
  const checkReads = (sqlText: string) => {
    const declared = computing.getStore();
    if (!declared || !cacheReads) return;
    for (const [, name] of sqlText.matchAll(TABLE_REFERENCE)) {
      const table = DERIVED_TABLES[name!] ?? name!;
      if (table === 'change_counters' || declared.includes(table as VersionedTable)) continue;
      cacheReads.undeclared.push({ declared, table: name!, sql: sqlText });
    }
  };
  const log: LogConfig | undefined =
    queryLog || cacheReads
      ? (event) => {
          if (event.level !== 'query') return;
          queryLog?.(event.query.sql, event.query.parameters);
          checkReads(event.query.sql);
        }
      : undefined;
  let dropSchema: (() => Promise<void>) | undefined;
  let database;
  let pgSchema: string | undefined;
  if (testDatabaseUrl) {
    const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
    await onTestDatabase(`create schema ${schema}`);
    pgSchema = schema;
    database = openDatabase({ databaseUrl: testDatabaseUrl, pgSchema: schema, poolSize: 5, log });
    dropSchema = () => onTestDatabase(`drop schema if exists ${schema} cascade`);
  } else {
    database = openDatabase({ sqliteFile: path.join(dataDir, 'bloodbank.db'), log });
  }
  if (cacheReads) {
    database.changes.readsCheck = {
      cacheCreated: (cache, tables) => void cacheReads.declared.set(cache, tables),
      compute: (cache, tables, compute) => {
        cacheReads.computed.add(cache);
        return computing.run(tables, compute);
      },
    };
  }
  await migrateToLatest(database.db, { pgSchema });
  const app = await buildApp(
    config,
    options.logStream
      ? { database, clock, logStream: options.logStream }
      : { database, clock, logger: false },
  );
  await app.ready();

  return {
    app,
    db: database.db,
    engine: database.engine,
    config,
    clock,
    ...(cacheReads ? { cacheReads } : {}),
    ...(pgSchema ? { pgSchema } : {}),
    close: async () => {
      await app.close();
      await dropSchema?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
