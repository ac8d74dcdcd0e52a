import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../config';
import { serverAnswering } from './server-answering';
import { SQLITE_FILE_NAME } from '../db/open-from-config';
import { ensurePrivateFile } from '../lib/private-files';

/**
 * npm run backup -- FILE    online backup of the SQLite database while the server keeps serving
 * npm run restore -- FILE   puts a backup in place (stop the server first)
 *
 * PostgreSQL is backed up with its own tools: pg_dump "$DATABASE_URL" > FILE (see the README).
 */
export async function backupSqlite(databaseFile: string, targetFile: string): Promise<void> {
  const source = new SQLite(databaseFile, { readonly: true, fileMustExist: true });
  // The copy holds the same personal data: created private before SQLite writes into it.
  ensurePrivateFile(targetFile);
  try {
    // SQLite's online backup API copies a consistent snapshot page by page, beside live writers.
    await source.backup(targetFile);
  } finally {
    source.close();
  }
  const check = new SQLite(targetFile, { readonly: true });
  try {
    const result = check.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new Error(`backup failed its integrity check: ${String(result)}`);
  } finally {
    check.close();
  }
}

export function restoreSqlite(backupFile: string, databaseFile: string): void {
  const check = new SQLite(backupFile, { readonly: true, fileMustExist: true });
  try {
    if (check.pragma('integrity_check', { simple: true }) !== 'ok') throw new Error(`${backupFile} is damaged`);
  } finally {
    check.close();
  }
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true });
  // The WAL and shared-memory files of the old database would be replayed over the restored one.
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${databaseFile}${suffix}`, { force: true });
  const temporary = `${databaseFile}.restoring`;
  fs.copyFileSync(backupFile, temporary);
  fs.renameSync(temporary, databaseFile);
}

async function main(mode: string | undefined, file: string | undefined) {
  const config = loadConfig();
  if (!file || (mode !== 'backup' && mode !== 'restore')) {
    console.error('Usage: npm run backup -- FILE | npm run restore -- FILE');
    process.exit(2);
  }
  if (config.databaseUrl) {
    console.error('DATABASE_URL is set: back up PostgreSQL with pg_dump "$DATABASE_URL" > FILE and restore with psql.');
    process.exit(2);
  }
  const databaseFile = path.join(config.dataDir, SQLITE_FILE_NAME);
  if (mode === 'backup') {
    await backupSqlite(databaseFile, path.resolve(file));
    console.log(`Backed up ${databaseFile} to ${path.resolve(file)}.`);
  } else {
    const running = await serverAnswering(config);
    if (running) {
      console.error(`A server is running at ${running}: stop it first (Ctrl+C), then restore and start it again.`);
      process.exit(1);
    }
    restoreSqlite(path.resolve(file), databaseFile);
    console.log(`Restored ${path.resolve(file)} into ${databaseFile}. Start the server again.`);
  }
}

if (process.argv[1] && /backup\.(ts|js)$/.test(process.argv[1])) {
  await main(process.argv[2], process.argv[3]).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
