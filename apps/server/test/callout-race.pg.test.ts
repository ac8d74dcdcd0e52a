import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createDonor, type TestUser } from './factories';
import { onTwoInstances, type SecondInstance } from './support/second-instance';
import { testDatabaseUrl, type TestApp } from './test-app';

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
  let second: SecondInstance;
  let admin: TestUser;
  onTwoInstances(`${TODAY}T09:00:00Z`, (world) => ({ t, second, admin } = world));

  it('tells a donor once when staff on two servers call out the same group at the same moment', async () => {
    const donor = await createDonor(t, { bloodgroup: 'O-' });
    const callOut = (app: FastifyInstance) =>
      app.inject({ method: 'POST', url: '/api/admin/callouts', headers: admin.headers, payload: { bloodgroup: 'O-' } });
    const { holder, other, untilWaiting } = second;

    await holder.query('begin');
    // Recording the donor as told takes a key-share lock on their row: FOR UPDATE holds it back.
    await holder.query('select id from users where id = $1 for update', [donor.id]);
    const first = callOut(t.app);
    await untilWaiting(1, 'callout');
    const secondCallOut = callOut(other);
    await untilWaiting(2, 'callout');
    await holder.query('commit');

    const answers = await Promise.all([first, secondCallOut]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    expect(answers.map((answer) => answer.json<{ notified: number }>().notified).sort()).toEqual([0, 1]);
    const told = await t.db.selectFrom('notifications').select('title').where('user_id', '=', donor.id).where('kind', '=', 'callout').execute();
    expect(told).toEqual([{ title: 'Blood for O- patients is needed' }]);
  }, 30_000);
});
