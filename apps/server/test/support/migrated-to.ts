import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import { afterEach, expect } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database';
import { migrationProvider } from '../../src/db/migrations';
import { onTestDatabase, testDatabaseUrl } from '../test-app';

/**
 * A fresh database migrated up to (and including) one migration, for a test that writes rows the
 * way the product stored them then and runs the next migrations on them: a temp SQLite file, or
 * (with TEST_DATABASE_URL) a PostgreSQL schema of its own. Removed after each test.
 */
export interface MigratedDatabase {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema as it was, not as types.ts has it
  db: Kysely<any>;
  /** Runs every later migration. */
  migrateToLatest: () => Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function openFresh(): Promise<{ handle: DatabaseHandle; pgSchema?: string }> {
  if (testDatabaseUrl) {
    const schema = `mig_${crypto.randomBytes(6).toString('hex')}`;
    await onTestDatabase(`create schema ${schema}`);
    const handle = openDatabase({ databaseUrl: testDatabaseUrl, pgSchema: schema, poolSize: 2 });
    cleanups.push(async () => {
      await handle.close();
      await onTestDatabase(`drop schema if exists ${schema} cascade`);
    });
    return { handle, pgSchema: schema };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-migration-'));
  const handle = openDatabase({ sqliteFile: path.join(dir, 'bloodbank.db') });
  cleanups.push(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { handle };
}

export async function migratedTo(migrationName: string): Promise<MigratedDatabase> {
  const { handle, pgSchema } = await openFresh();
  const migrator = new Migrator({
    db: handle.db,
    provider: migrationProvider,
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const partial = await migrator.migrateTo(migrationName);
  expect(partial.error).toBeUndefined();
  return {
    db: handle.db,
    migrateToLatest: async () => {
      await migrateToLatest(handle.db, pgSchema ? { pgSchema } : {});
    },
  };
}
