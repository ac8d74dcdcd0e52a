import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { backupSqlite, restoreSqlite } from '../src/cli/backup';
import { migrateToLatest, openDatabase } from '../src/db/database';

describe('SQLite backup and restore', () => {
  it('round-trips every row, taken while the database is open for writing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-backup-'));
    const file = path.join(dir, 'bloodbank.db');
    const live = openDatabase({ sqliteFile: file });
    await migrateToLatest(live.db);
    const at = new Date().toISOString();
    const row = (i: number) => ({ user_id: 1, kind: 'test', message: `event ${i}`, created_at: at });
    await live.db.insertInto('users').values({ username: 'u', username_key: 'u', password_hash: 'x', role: 'DONOR', first_name: null, last_name: null, email: null, bloodgroup: null, address: null, mobile: null, profile_pic: null, created_at: at, updated_at: at }).execute();
    await live.db.insertInto('activities').values(Array.from({ length: 50 }, (_, i) => row(i))).execute();

    const backupFile = path.join(dir, 'backup.db');
    await backupSqlite(file, backupFile);
    // Made readable to others since (copied around): the restored database is private all the same.
    fs.chmodSync(backupFile, 0o644);
    // Written after the backup: must be gone after the restore.
    await live.db.insertInto('activities').values(row(999)).execute();
    await live.close();

    const restored = await restoreSqlite(backupFile, file, new Date('2026-12-07T22:00:00.000Z'));
    expect(restored).toMatchObject({ donors: 1, patients: 0, donations: 0 });
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    const reopened = openDatabase({ sqliteFile: file });
    const count = await reopened.db.selectFrom('activities').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(50);
    await reopened.close();

    // The database it replaced is kept, with the row written after the backup: a wrong restore can be undone.
    expect(restored.kept).toBe(`${file}.before-restore-2026-12-07T22-00-00-000Z`);
    expect((fs.statSync(restored.kept!).mode & 0o777).toString(8)).toBe('600');
    const previous = openDatabase({ sqliteFile: restored.kept! });
    const before = await previous.db.selectFrom('activities').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(before.n)).toBe(51);
    await previous.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a damaged file, an empty one and a database that is no blood bank, and leaves the bank as it was', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-backup-'));
    try {
      const file = path.join(dir, 'bloodbank.db');
      const live = openDatabase({ sqliteFile: file });
      await migrateToLatest(live.db);
      await live.close();
      const untouched = fs.readFileSync(file);

      const bad = path.join(dir, 'bad.db');
      fs.writeFileSync(bad, 'this is not a database');
      await expect(restoreSqlite(bad, file)).rejects.toThrow(`${bad} is not a database backup, or is damaged`);
      // An interrupted copy: SQLite takes an empty file for an empty database.
      const empty = path.join(dir, 'empty.db');
      fs.writeFileSync(empty, '');
      await expect(restoreSqlite(empty, file)).rejects.toThrow(`${empty} is not a blood bank backup: it holds no donors, donations or migrations. Nothing was changed.`);
      const foreign = path.join(dir, 'foreign.db');
      const other = new SQLite(foreign);
      other.exec('create table notes (text text)');
      other.close();
      await expect(restoreSqlite(foreign, file)).rejects.toThrow('is not a blood bank backup');
      const missing = path.join(dir, 'nowhere.db');
      await expect(restoreSqlite(missing, file)).rejects.toThrow(`There is no backup at ${missing}. Nothing was changed.`);

      expect(fs.readFileSync(file).equals(untouched)).toBe(true);
      expect(fs.readdirSync(dir).filter((name) => name.includes('before-restore'))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('file modes', () => {
  it('creates the database, its -wal and -shm files and a backup readable by the server user only, and tightens an old 644 database', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-modes-'));
    const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
    try {
      const file = path.join(dir, 'data', 'bloodbank.db');
      const live = openDatabase({ sqliteFile: file });
      await migrateToLatest(live.db);
      for (const each of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(each).toString(8), each).toBe('600');
      expect(modeOf(path.dirname(file)).toString(8)).toBe('700');

      const backupFile = path.join(dir, 'backup.db');
      await backupSqlite(file, backupFile);
      expect(modeOf(backupFile).toString(8)).toBe('600');
      await live.close();

      // A database created before the rule, world-readable: opened again, it is private.
      fs.chmodSync(file, 0o644);
      const reopened = openDatabase({ sqliteFile: file });
      expect(modeOf(file).toString(8)).toBe('600');
      await reopened.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
