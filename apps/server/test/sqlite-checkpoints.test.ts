import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database';
import { writeTransactionsFor } from '../src/db/write-transactions';

/**
 * SQLite's checkpoints run in a worker thread (db/sqlite-checkpoints.ts), never inside a commit on
 * the server's thread; the log must still be copied back and started again, or it would grow
 * without end.
 */
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('background checkpoints (SQLite)', () => {
  let dataDir: string;
  let database: DatabaseHandle;
  const file = () => path.join(dataDir, 'bloodbank.db');

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-checkpoints-'));
    database = openDatabase({ sqliteFile: file() });
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the server connection never checkpoints in a commit', async () => {
    const result = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
    expect(result.rows[0]!.wal_autocheckpoint).toBe(0);
  });

  it('keeps the log to a few batches while writes go on: each is copied back and the log starts again', async () => {
    const writes = writeTransactionsFor(database);
    // About 2 MB of new pages per round (a 1 KB message in 2,000 activity rows).
    const round = (index: number) =>
      writes.run((trx) =>
        sql`insert into activities (user_id, kind, message, created_at)
            select 1, 'bulk', ${`round ${index} `} || hex(randomblob(500)), '2026-06-15T10:00:00.000Z'
            from (with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000) select i from n)`.execute(trx),
      );
    await sql`insert into users (username, username_key, password_hash, role, created_at, updated_at) values ('bulk', 'bulk', 'x', 'PATIENT', '2026-06-15', '2026-06-15')`.execute(database.db);
    const walSize = () => fs.statSync(`${file()}-wal`).size;
    let largest = 0;
    for (let index = 0; index < 8; index += 1) {
      await round(index);
      largest = Math.max(largest, walSize());
      // Time for the checkpoint that the write asked for.
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    const written = (await sql<{ pages: number }>`select count(*) as pages from activities where kind = 'bulk'`.execute(database.db)).rows[0]!.pages;
    expect(written).toBe(16_000);
    // Eight rounds wrote about 16 MB; without checkpoints the log would hold all of it.
    expect(largest).toBeLessThan(8 * 1024 * 1024);
    // And what the log held is in the database file.
    expect(fs.statSync(file()).size).toBeGreaterThan(12 * 1024 * 1024);
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('closing a SQLite handle (SQLite)', () => {
  it('settles when closed twice, as the app and the CLI that opened the database both do (npm run seed:demo)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-close-twice-'));
    try {
      const database = openDatabase({ sqliteFile: path.join(dataDir, 'bloodbank.db') });
      await migrateToLatest(database.db);
      await database.close();
      // Before the fix the second close waited for the checkpoint thread's exit, which had already
      // happened: the promise never settled, and the seed ended with Node's exit code 13.
      const second = await Promise.race([
        database.close().then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3_000).unref()),
      ]);
      expect(second).toBe('closed');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
