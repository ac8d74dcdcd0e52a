import { Migrator } from 'kysely';
import type { Database, DatabaseHandle, DatabaseOptions } from './handle';
import { migrationProvider } from './migrations/index';
import { openPostgres } from './postgres';
import { openSqlite } from './sqlite';

/**
 * The database, whichever the engine: DATABASE_URL selects PostgreSQL (db/postgres.ts), otherwise
 * the embedded SQLite file (db/sqlite.ts). What every caller sees is a DatabaseHandle (db/handle.ts).
 */
export type { Database, DatabaseHandle, DatabaseOptions, DatabaseOrTransaction, Engine } from './handle';

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) return openPostgres({ ...options, databaseUrl: options.databaseUrl });
  if (!options.sqliteFile) throw new Error('openDatabase: sqliteFile is required without a databaseUrl');
  return openSqlite({ ...options, sqliteFile: options.sqliteFile });
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
    // No migration failed when the database could not be reached at all (PostgreSQL: a database
    // not created yet): say so, and what to do, rather than "Migration  failed".
    if (!failed) {
      const hint = /database ".*" does not exist/.test(cause.message)
        ? ' (create it first, e.g. with createdb)'
        : /corrupted migrations: previously executed migration .* is missing/.test(cause.message)
          ? ' (a newer version of the blood bank has upgraded this database: run that version, or restore the backup taken before the upgrade)'
          : '';
      throw new Error(`The database could not be prepared: ${cause.message}${hint}`, { cause });
    }
    throw new Error(`Migration ${failed.migrationName} failed: ${cause.message}`, { cause });
  }
  return (results ?? []).map((result) => result.migrationName);
}

/** Current instant as stored: ISO-8601 UTC. */
export const nowIso = () => new Date().toISOString();
