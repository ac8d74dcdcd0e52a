import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/database';
import { createDonor, type TestUser } from './factories';
import { staffOf } from './donation-helpers';
import { createTestApp, testDatabaseUrl, type TestApp } from './test-app';

/**
 * Two call-outs at once on two instances (PRODUCT.md 3.8: each donor at most once in 14 days). The
 * test makes the worst order happen every time: the first call-out has chosen its donors and then
 * waits, on a lock this test holds on the donor's row, while the second call-out starts on the
 * other instance; then the donor is let go. Without the call-out lock both had chosen the same donor
 * and both told them. PostgreSQL only: SQLite's writes take turns.
 */
const TODAY = '2026-06-15';

describe.skipIf(!testDatabaseUrl)('two call-outs racing on two instances (PostgreSQL)', () => {
  let t: TestApp;
  let other: FastifyInstance;
  let admin: TestUser;
  let holder: pg.Client;

  beforeAll(async () => {
    t = await createTestApp({ now: `${TODAY}T09:00:00Z` });
    const database = openDatabase({ databaseUrl: testDatabaseUrl!, pgSchema: t.pgSchema!, poolSize: 5 });
    other = await buildApp(t.config, { database, clock: t.clock, logger: false });
    await other.ready();
    admin = await staffOf(t);
    holder = new pg.Client({ connectionString: testDatabaseUrl, options: `-c search_path=${t.pgSchema}` });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await other?.close();
    await t?.close();
  });

  /** Until PostgreSQL shows `count` call-out statements waiting for a lock (other test files share the database). */
  async function untilWaiting(count: number): Promise<void> {
    for (let tries = 0; tries < 150; tries += 1) {
      // Inside a transaction pg_stat_activity answers the same snapshot until it is cleared.
      await holder.query('select pg_stat_clear_snapshot()');
      const { rows } = await holder.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%callout%' and pid <> pg_backend_pid()",
      );
      if (rows[0]!.n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`fewer than ${count} call-out statements waited for a lock`);
  }

  it('tells a donor once when staff on two servers call out the same group at the same moment', async () => {
    const donor = await createDonor(t, { bloodgroup: 'O-' });
    const callOut = (app: FastifyInstance) =>
      app.inject({ method: 'POST', url: '/api/admin/callouts', headers: admin.headers, payload: { bloodgroup: 'O-' } });

    await holder.query('begin');
    // Recording the donor as told takes a key-share lock on their row: FOR UPDATE holds it back.
    await holder.query('select id from users where id = $1 for update', [donor.id]);
    const first = callOut(t.app);
    await untilWaiting(1);
    const second = callOut(other);
    await untilWaiting(2);
    await holder.query('commit');

    const answers = await Promise.all([first, second]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    expect(answers.map((answer) => answer.json<{ notified: number }>().notified).sort()).toEqual([0, 1]);
    const told = await t.db.selectFrom('notifications').select('title').where('user_id', '=', donor.id).where('kind', '=', 'callout').execute();
    expect(told).toEqual([{ title: 'Blood for O- patients is needed' }]);
  }, 30_000);
});
