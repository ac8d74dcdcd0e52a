import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
    // Written after the backup: must be gone after the restore.
    await live.db.insertInto('activities').values(row(999)).execute();
    await live.close();

    restoreSqlite(backupFile, file);
    const restored = openDatabase({ sqliteFile: file });
    const count = await restored.db.selectFrom('activities').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(50);
    await restored.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to restore a damaged file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-backup-'));
    const bad = path.join(dir, 'bad.db');
    fs.writeFileSync(bad, 'this is not a database');
    expect(() => restoreSqlite(bad, path.join(dir, 'bloodbank.db'))).toThrow();
    expect(fs.existsSync(path.join(dir, 'bloodbank.db'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
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
