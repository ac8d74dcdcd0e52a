import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import type { LogConfig } from 'kysely';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { migrateToLatest, openDatabase, type Database, type Engine } from '../src/db/database';
import type { ConnectionStatements } from '../src/db/write-transactions';
import { createClock, type Clock } from '../src/lib/clock';

/**
 * A real app on a fresh, migrated database: a temp SQLite file, or (when TEST_DATABASE_URL is set)
 * a schema of its own on PostgreSQL. Tests talk to it through app.inject, never a port.
 */
export interface TestApp {
  app: FastifyInstance;
  db: Database;
  engine: Engine;
  /** SQLite: the connection's own statements, for the write batches (db/write-transactions.ts). */
  connection?: ConnectionStatements;
  config: Config;
  clock: TestClock;
  close: () => Promise<void>;
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
  const log: LogConfig | undefined = queryLog
    ? (event) => {
        if (event.level === 'query') queryLog(event.query.sql, event.query.parameters);
      }
    : undefined;
  let dropSchema: (() => Promise<void>) | undefined;
  let database;
  let pgSchema: string | undefined;
  if (testDatabaseUrl) {
    const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    pgSchema = schema;
    database = openDatabase({ databaseUrl: testDatabaseUrl, pgSchema: schema, poolSize: 5, log });
    dropSchema = async () => {
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    };
  } else {
    database = openDatabase({ sqliteFile: path.join(dataDir, 'bloodbank.db'), log });
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
    ...(database.connection ? { connection: database.connection } : {}),
    config,
    clock,
    close: async () => {
      await app.close();
      await dropSchema?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
