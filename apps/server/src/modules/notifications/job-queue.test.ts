import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { claimDueJobs } from './job-queue';

/**
 * The queue hands out jobs in the order they were queued: the worker sends one person's messages in
 * that order ("you are deferred" before "you can book again"), on both engines.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-03-10T09:00:00Z' });
});
afterAll(() => t.close());

describe('claimDueJobs', () => {
  it('answers the due jobs oldest first, even when an older row was rewritten after a newer one', async () => {
    const at = '2026-03-10T09:00:00.000Z';
    const job = (subject: string) => ({ kind: 'email', payload: JSON.stringify({ to: 'same@example.org', subject }), run_after: at, created_at: at });
    const rows = await t.db
      .insertInto('jobs')
      .values([job('first'), job('second'), job('third')])
      .returning('id')
      .execute();
    const ids = rows.map((row) => row.id).sort((a, b) => a - b);
    // A failed attempt rewrites the oldest row: PostgreSQL then keeps it after the others, and an
    // UPDATE ... RETURNING lists it last.
    await t.db.updateTable('jobs').set({ last_error: 'timed out' }).where('id', '=', ids[0]!).execute();

    const claimed = await t.db.transaction().execute((trx) => claimDueJobs(trx, t.engine, new Date(at), 10));
    expect(claimed.map((claim) => JSON.parse(claim.payload).subject)).toEqual(['first', 'second', 'third']);
    expect(claimed.map((claim) => claim.id)).toEqual(ids);
  });
});
