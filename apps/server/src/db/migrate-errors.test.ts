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
