import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../test/test-app';
import { migrateToLatest, openDatabase } from './database';

/** What the start says when the database is not there (README: PostgreSQL). */
describe.runIf(testDatabaseUrl)('migrating a PostgreSQL database that was never created', () => {
  it('says that the database does not exist and how to create it, not "Migration  failed"', async () => {
    const url = new URL(testDatabaseUrl!);
    url.pathname = '/bloodbank_never_created';
    const handle = openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    try {
      await expect(migrateToLatest(handle.db)).rejects.toThrow(
        'The database could not be prepared: database "bloodbank_never_created" does not exist (create it first, e.g. with createdb)',
      );
    } finally {
      await handle.close();
    }
  });
});

/** An older version started on a database a newer one has upgraded (the SQLite default). */
describe('migrating a database that a newer version has upgraded', () => {
  it('says a newer version upgraded it, and what to do', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-newer-'));
    const handle = openDatabase({ sqliteFile: path.join(dir, 'bloodbank.db') });
    try {
      await migrateToLatest(handle.db);
      // A migration this version does not have, as the newer version recorded it.
      await sql`insert into kysely_migration (name, timestamp) values ('2099-01-01-0001-from-the-future', '2099-01-01T00:00:00.000Z')`.execute(handle.db);
      await expect(migrateToLatest(handle.db)).rejects.toThrow(
        'a newer version of the blood bank has upgraded this database: run that version, or restore the backup taken before the upgrade',
      );
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
