import { loadConfig } from '../config';
import { migrateToLatest } from '../db/database';
import { openDatabaseFromConfig } from '../db/open-from-config';

/** npm run migrate: applies pending migrations and exits non-zero on failure. */
const config = loadConfig();
const database = openDatabaseFromConfig(config);
try {
  const applied = await migrateToLatest(database.db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
