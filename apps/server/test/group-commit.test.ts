import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database';
import { writeTransactionsFor } from '../src/db/write-transactions';
import { registrationBody } from './reliability/server-process';

/**
 * SQLite group commit (db/sqlite.ts, db/write-transactions.ts): a write is acknowledged only once the log holding its
 * commit is flushed to disk; reads never wait for a flush.
 */
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('group commit (SQLite)', () => {
  let dataDir: string;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let gate: { open: () => void; opened: Promise<void> } | undefined;
  let syncs = 0;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-group-commit-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    });
    const opened = openDatabase({ sqliteFile: path.join(dataDir, 'bloodbank.db') });
    await migrateToLatest(opened.db);
    const realSync = opened.syncCommits!;
    // The real flush, held behind a gate the test opens.
    database = {
      ...opened,
      syncCommits: async () => {
        syncs += 1;
        await gate?.opened;
        await realSync();
      },
    };
    app = await buildApp(config, { database, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const register = () =>
    app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registrationBody('commit', 'patient', 'A+'),
    });

  it('holds a write’s answer until the flush after its commit has finished', async () => {
    let open!: () => void;
    gate = { open: () => open(), opened: new Promise<void>((resolve) => (open = resolve)) };
    let answered = false;
    const pending = register().then((response) => {
      answered = true;
      return response;
    });
    try {
      // Committed (visible to a read) once the password is hashed and the batch has run...
      let row: { username: string } | undefined;
      for (let waited = 0; !row && waited < 20_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        row = await database.db
          .selectFrom('users')
          .select('username')
          .where('username', 'like', 'commit_%')
          .executeTakeFirst();
      }
      expect(row?.username).toMatch(/^commit_patient_/);
      // ...but not acknowledged while the flush is held.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(answered).toBe(false);
    } finally {
      gate.open();
    }
    const response = await pending;
    expect(response.statusCode, response.body).toBe(201);
    gate = undefined;
  });

  it('commits the next batch while the previous one is flushing, and answers each only after a flush that followed its commit', async () => {
    let open!: () => void;
    gate = { open: () => open(), opened: new Promise<void>((resolve) => (open = resolve)) };
    const probe = (message: string) =>
      sql`insert into activities (user_id, kind, message, created_at) select id, 'overlap', ${message}, '2026-06-15T10:00:00.000Z' from users limit 1`;
    const committed = async (message: string) => {
      for (let waited = 0; waited < 10_000; waited += 25) {
        const row = await database.db.selectFrom('activities').select('id').where('message', '=', message).executeTakeFirst();
        if (row) return true;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return false;
    };
    try {
      const writes = writeTransactionsFor(database);
      const answered: string[] = [];
      const first = writes.run((trx) => probe('overlap first').execute(trx)).then(() => answered.push('first'));
      expect(await committed('overlap first')).toBe(true);
      // The first batch's flush is held; the second batch still runs and commits meanwhile...
      const second = writes.run((trx) => probe('overlap second').execute(trx)).then(() => answered.push('second'));
      expect(await committed('overlap second')).toBe(true);
      // ...and neither is answered before its flush.
      expect(answered).toEqual([]);
      gate.open();
      await Promise.all([first, second]);
      expect(answered).toEqual(['first', 'second']);
    } finally {
      gate.open();
      gate = undefined;
    }
  });

  it('every write waits for a flush, reads never do', async () => {
    const before = syncs;
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(syncs).toBe(before);
    const responses = await Promise.all(Array.from({ length: 20 }, () => register()));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(201));
    // One flush per batch of writes committed together (each write's answer waits for it), never more
    // than one per write.
    expect(syncs).toBeGreaterThan(before);
    expect(syncs).toBeLessThanOrEqual(before + 20);
    // Nothing left unflushed: another sync returns at once.
    await database.syncCommits!();
  });

  it('a write resolves only after the flush, whoever asked for it (a GET that wrote too)', async () => {
    let open!: () => void;
    gate = { open: () => open(), opened: new Promise<void>((resolve) => (open = resolve)) };
    try {
      const writes = writeTransactionsFor(database);
      let resolved = false;
      const written = writes
        .run((trx) =>
          sql`insert into activities (user_id, kind, message, created_at) select id, 'probe', 'flush probe', '2026-06-15T10:00:00.000Z' from users limit 1`.execute(
            trx,
          ),
        )
        .then(() => (resolved = true));
      // Committed (a read sees it) but not resolved while the flush is held.
      let seen = false;
      for (let waited = 0; !seen && waited < 10_000; waited += 25) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        seen =
          (await database.db
            .selectFrom('activities')
            .select('id')
            .where('kind', '=', 'probe')
            .executeTakeFirst()) !== undefined;
      }
      expect(seen).toBe(true);
      expect(resolved).toBe(false);
      gate.open();
      await written;
      expect(resolved).toBe(true);
    } finally {
      gate.open();
      gate = undefined;
    }
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the log flush itself (SQLite)', () => {
  it('flushes the log to disk after a write, not after a read, and on closing after a write', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-flush-'));
    const file = path.join(dataDir, 'bloodbank.db');
    // FileHandle is not exported: its prototype is reached through an open handle.
    const probe = await fs.promises.open(path.join(dataDir, 'probe'), 'w');
    const datasync = vi.spyOn(Object.getPrototypeOf(probe) as { datasync: () => Promise<void> }, 'datasync');
    await probe.close();
    try {
      const opened = openDatabase({ sqliteFile: file });
      await migrateToLatest(opened.db);
      await sql`create table flush_probe (value integer)`.execute(opened.db);
      await opened.syncCommits!();
      const afterMigrations = datasync.mock.calls.length;
      expect(afterMigrations).toBeGreaterThan(0);

      await opened.db.selectFrom('users').select('id').execute();
      await opened.syncCommits!();
      expect(datasync.mock.calls.length).toBe(afterMigrations);

      await sql`insert into flush_probe values (1)`.execute(opened.db);
      await opened.syncCommits!();
      expect(datasync.mock.calls.length).toBe(afterMigrations + 1);

      // A tool's write with the server running: closing flushes it, as closing does not checkpoint then.
      const tool = openDatabase({ sqliteFile: file });
      await sql`insert into flush_probe values (2)`.execute(tool.db);
      const beforeClose = datasync.mock.calls.length;
      await tool.close();
      expect(datasync.mock.calls.length).toBe(beforeClose + 1);
      await opened.close();
    } finally {
      datasync.mockRestore();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
