import path from 'node:path';
import type { Config } from '../config';
import { openDatabase, type DatabaseHandle } from './database';

export const SQLITE_FILE_NAME = 'bloodbank.db';

/** DATABASE_URL selects PostgreSQL; otherwise the embedded SQLite file under DATA_DIR. */
export function openDatabaseFromConfig(config: Config): DatabaseHandle {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, SQLITE_FILE_NAME),
  });
}
