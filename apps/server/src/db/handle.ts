import type { Kysely, LogConfig, Transaction } from 'kysely';
import type { ChangeWatch } from './change-versions';
import type { DB } from './types';

export type Database = Kysely<DB>;
export type DatabaseOrTransaction = Kysely<DB> | Transaction<DB>;
export type Engine = 'sqlite' | 'postgres';

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

/** An open database, whichever the engine (db/sqlite.ts, db/postgres.ts). */
export interface DatabaseHandle {
  db: Database;
  engine: Engine;
  /** Whether anything changed since: what reused answers check (db/change-versions.ts). */
  changes: ChangeWatch;
  /**
   * Resolves once every commit made so far is on disk, for engines where a commit alone does not
   * promise it (SQLite here: group commit, db/sqlite.ts); a write is acknowledged only after it.
   * Undefined where every commit already waits for the disk (PostgreSQL).
   */
  syncCommits?: () => Promise<void>;
  /** PostgreSQL: told of each error of a connection that no query was waiting on. */
  onConnectionError?: (listener: (error: Error) => void) => void;
  close: () => Promise<void>;
}
