import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import { migrationProvider } from './migrations/index';
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
}

export interface DatabaseHandle {
  db: Database;
  engine: Engine;
  close: () => Promise<void>;
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  const file = options.sqliteFile;
  if (!file) throw new Error('openDatabase: sqliteFile is required without a databaseUrl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers run beside the writer; FULL sync makes every acknowledged commit durable.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, engine: 'sqlite', close: () => db.destroy() };
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
