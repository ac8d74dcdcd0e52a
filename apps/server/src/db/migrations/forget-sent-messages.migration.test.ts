import { describe, expect, it } from 'vitest';
import { migratedTo } from '../../../test/support/migrated-to';

/**
 * Migration 2026-11-28-0002 on a queue written before it: the messages already sent or given up
 * are forgotten (a reset link among them), the ones still to send are kept as they were.
 */

describe('migration 2026-11-28-0002 (forget sent messages)', () => {
  it("empties the messages of the sent and given-up jobs and leaves the others", async () => {
    const previous = await migratedTo('2026-11-28-0001-bookings-in-time-order');
    const db = previous.db;
    const at = '2026-11-20T10:00:00.000Z';
    const job = (payload: object, state: { done_at?: string; failed_at?: string }) => ({
      kind: 'email',
      payload: JSON.stringify(payload),
      run_after: at,
      created_at: at,
      ...state,
    });
    const reset = {
      to: 'asha@example.org',
      text: 'Choose a new password: https://bank.example.org/reset-password?token=abc',
    };
    const waiting = { to: 'ravi@example.org', text: 'Your donation is booked' };
    const givenUp = { to: 'old@example.org', text: 'Your donation is booked' };
    await db
      .insertInto('jobs')
      .values([job(reset, { done_at: at }), job(waiting, {}), job(givenUp, { failed_at: at })])
      .execute();

    await previous.migrateToLatest();

    const rows = await db
      .selectFrom('jobs')
      .select(['payload', 'done_at', 'failed_at'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { payload: '', done_at: at, failed_at: null },
      { payload: JSON.stringify(waiting), done_at: null, failed_at: null },
      { payload: '', done_at: null, failed_at: at },
    ]);
  });
});
