import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../config';
import { serverAnswering } from './server-answering';
import { SQLITE_FILE_NAME } from '../db/open-from-config';
import { ensurePrivateFile, PRIVATE_FILE_MODE } from '../lib/private-files';

/**
 * npm run backup -- FILE    online backup of the SQLite database while the server keeps serving
 * npm run restore -- FILE   puts a backup in place (stop the server first)
 *
 * PostgreSQL is backed up with its own tools: pg_dump "$DATABASE_URL" > FILE (see the README).
 */
export async function backupSqlite(databaseFile: string, targetFile: string): Promise<void> {
  const source = openOrExplain(databaseFile, 'There is no database to back up at', { readonly: true, fileMustExist: true });
  // The copy holds the same personal data: created private before SQLite writes into it.
  ensurePrivateFile(targetFile);
  try {
    // SQLite's online backup API copies a consistent snapshot page by page, beside live writers.
    await source.backup(targetFile);
  } finally {
    source.close();
  }
  const check = new SQLite(targetFile);
  try {
    // One file: the copy takes the live database's write-ahead-log mode, which leaves -wal and -shm
    // files beside it once opened.
    check.pragma('journal_mode = DELETE');
    const result = check.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new Error(`backup failed its integrity check: ${String(result)}`);
  } finally {
    check.close();
  }
}

/** What a blood bank's database holds, said after a restore so the operator sees it is the right one. */
export interface BankContents {
  donors: number;
  patients: number;
  donations: number;
}

/**
 * The contents of `file` when it is a sound blood bank database; an error that names the file and
 * says nothing was changed otherwise. An empty file is a sound SQLite database with no tables: it
 * was restored over a whole bank, and the server made a new empty one on it.
 */
function bankContentsOf(file: string): BankContents {
  const check = openOrExplain(file, 'There is no backup at', { readonly: true, fileMustExist: true });
  try {
    let integrity: unknown;
    try {
      integrity = check.pragma('integrity_check', { simple: true });
    } catch (error) {
      throw new Error(`${file} is not a database backup, or is damaged (${messageOf(error)}). Nothing was changed.`);
    }
    if (integrity !== 'ok') throw new Error(`${file} is damaged (${String(integrity)}). Nothing was changed.`);
    const tables = new Set(check.prepare("select name from sqlite_master where type = 'table'").pluck().all());
    if (!['kysely_migration', 'users', 'donations'].every((table) => tables.has(table))) {
      throw new Error(`${file} is not a blood bank backup: it holds no donors, donations or migrations. Nothing was changed.`);
    }
    const count = (query: string) => Number(check.prepare(query).pluck().get());
    return {
      donors: count("select count(*) from users where role = 'DONOR'"),
      patients: count("select count(*) from users where role = 'PATIENT'"),
      donations: count('select count(*) from donations'),
    };
  } finally {
    check.close();
  }
}

/**
 * Puts a backup in place of the database (the server stopped). The database it replaces is kept
 * beside it, `bloodbank.db.before-restore-<time>`: restoring the wrong file is then undone by
 * restoring that one.
 */
export async function restoreSqlite(
  backupFile: string,
  databaseFile: string,
  now: Date = new Date(),
): Promise<BankContents & { kept: string | null }> {
  const contents = bankContentsOf(backupFile);
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true, mode: 0o700 });
  let kept: string | null = null;
  if (fs.existsSync(databaseFile)) {
    kept = `${databaseFile}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    // Through SQLite, which reads what its write-ahead log still holds; a copy of the file would not.
    await backupSqlite(databaseFile, kept);
  }
  // The WAL and shared-memory files of the old database would be replayed over the restored one.
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${databaseFile}${suffix}`, { force: true });
  const temporary = `${databaseFile}.restoring`;
  fs.copyFileSync(backupFile, temporary);
  // A copy takes the backup's mode (a backup may have been made readable to others): private again
  // before it takes the database's place.
  fs.chmodSync(temporary, PRIVATE_FILE_MODE);
  fs.renameSync(temporary, databaseFile);
  return { ...contents, kept };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Opens a SQLite file, or fails with a sentence that names it (SQLite's own says "unable to open database file"). */
function openOrExplain(file: string, missing: string, options: SQLite.Options): SQLite.Database {
  try {
    return new SQLite(file, options);
  } catch (error) {
    throw new Error(
      fs.existsSync(file) ? `${file} cannot be opened: ${messageOf(error)}. Nothing was changed.` : `${missing} ${file}. Nothing was changed.`,
    );
  }
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
    if (path.resolve(file) === databaseFile) {
      console.error(`${file} is the database itself: give the backup another name.`);
      process.exit(2);
    }
    await backupSqlite(databaseFile, path.resolve(file));
    console.log(
      `Backed up ${databaseFile} to ${path.resolve(file)}. Not in it: the profile pictures (${path.join(config.dataDir, 'uploads')}) ` +
        `and the session key (${path.join(config.dataDir, 'jwt-secret')}, unless JWT_SECRET is set): copy them too.`,
    );
  } else {
    const running = await serverAnswering(config);
    if (running) {
      console.error(`A server is running ${running}: stop it first (Ctrl+C), then restore and start it again.`);
      process.exit(1);
    }
    const restored = await restoreSqlite(path.resolve(file), databaseFile);
    console.log(
      `Restored ${path.resolve(file)} into ${databaseFile}: ${restored.donors} donors, ${restored.patients} patients, ${restored.donations} donations.` +
        (restored.kept ? ` The database it replaced is kept as ${restored.kept}.` : '') +
        ' Start the server again.',
    );
  }
}

if (process.argv[1] && /backup\.(ts|js)$/.test(process.argv[1])) {
  await main(process.argv[2], process.argv[3]).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
