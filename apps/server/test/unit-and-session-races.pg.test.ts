import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Transaction } from 'kysely';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { DB } from '../src/db/types';
import { issueUnitsFefo } from '../src/modules/inventory/issue-units';
import { insertRequest, insertUnits } from './admin-fixtures';
import { insertDonationRow, NEGATIVE_RESULTS } from './donation-helpers';
import { createDonor, createPatient, TEST_PASSWORD, type TestUser } from './factories';
import { onTwoInstances, type SecondInstance } from './support/second-instance';
import { testDatabaseUrl, type TestApp } from './test-app';

/**
 * Two writes on two instances that each decide from a row the other is changing, found by a
 * concurrency attack on two PostgreSQL instances. Each test makes the worst order happen every
 * time: `holder` locks a row both need, the first write queues behind it, the second is sent, and
 * then the lock is let go. PostgreSQL only: SQLite's writes take turns.
 */
const TODAY = '2026-03-10';

describe.skipIf(!testDatabaseUrl)('writes racing on two instances (PostgreSQL)', () => {
  let t: TestApp;
  let second: SecondInstance;
  let admin: TestUser;
  onTwoInstances(`${TODAY}T09:00:00Z`, (world) => ({ t, second, admin } = world));

  it('a unit being separated while a reactive result puts the donor on lookback: the components are held, never in stock', async () => {
    const donor = await createDonor(t, { bloodgroup: 'O+' });
    // Blood given three weeks ago, released and on the shelf; today's donation awaits its results.
    const earlier = await insertDonationRow(t, donor.id, { date: '2026-02-17', status: 'released' });
    const [wholeBlood] = await insertUnits(t, {
      bloodgroup: 'O+',
      component: 'whole_blood',
      donation_id: earlier,
      collected_on: '2026-02-17',
      expires_on: '2026-03-24',
    });
    const inTesting = await insertDonationRow(t, donor.id, { date: TODAY, status: 'collected' });

    const { holder, other, untilWaiting } = second;
    await holder.query('begin');
    await holder.query('select id from blood_units where id = $1 for update', [wholeBlood]);
    const processing = t.app.inject({
      method: 'POST',
      url: `/api/admin/units/${wholeBlood}/process`,
      headers: admin.headers,
      payload: { components: ['red_cells', 'plasma'] },
    });
    await untilWaiting(1);
    const results = other.inject({
      method: 'POST',
      url: `/api/admin/donations/${inTesting}/results`,
      headers: admin.headers,
      payload: { ...NEGATIVE_RESULTS, syphilis: 'reactive', bloodgroup: 'O+' },
    });
    await untilWaiting(2);
    await holder.query('commit');

    const [processed, resulted] = await Promise.all([processing, results]);
    expect(processed.statusCode, processed.body).toBe(200);
    expect(resulted.statusCode, resulted.body).toBe(200);
    const components = await t.db
      .selectFrom('blood_units')
      .select(['id', 'status', 'hold_reason'])
      .where('parent_unit_id', '=', wholeBlood!)
      .orderBy('id')
      .execute();
    expect(components).toHaveLength(2);
    // Without the donor's lock the separation read "available", the lookback's update started
    // before the components existed, and both went to stock: a patient was issued them.
    for (const component of components) expect(component).toMatchObject({ status: 'quarantined', hold_reason: 'lookback' });
    expect(resulted.json<{ lookback_unit_ids: number[] }>().lookback_unit_ids).toEqual(components.map((unit) => unit.id));
  }, 30_000);

  it('a password reset that ends every session wins over an e-mail change its old session was making', async () => {
    const owner = await createDonor(t, { email: 'owner@example.org' });
    const token = crypto.randomBytes(24).toString('base64url');
    await t.db
      .insertInto('password_resets')
      .values({
        user_id: owner.id,
        token_hash: crypto.createHash('sha256').update(token).digest('hex'),
        expires_at: `${TODAY}T10:00:00.000Z`,
        used_at: null,
        created_at: `${TODAY}T09:00:00.000Z`,
      })
      .execute();

    const { holder, other, untilWaiting } = second;
    await holder.query('begin');
    await holder.query('select id from users where id = $1 for update', [owner.id]);
    // The owner sets a new password from the e-mailed link...
    const reset = other.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, password: 'owners-new-password-1' },
    });
    await untilWaiting(1);
    // ...while someone with the old session and the old password re-points the account's e-mail.
    const change = t.app.inject({
      method: 'PATCH',
      url: '/api/users/me',
      headers: owner.headers,
      payload: { email: 'someone-else@example.org', current_password: TEST_PASSWORD },
    });
    await untilWaiting(2);
    await holder.query('commit');

    const [resetAnswer, changeAnswer] = await Promise.all([reset, change]);
    expect(resetAnswer.statusCode, resetAnswer.body).toBe(204);
    // The session the reset ended changes nothing, though it passed the sign-in check before.
    expect(changeAnswer.statusCode, changeAnswer.body).toBe(401);
    const row = await t.db.selectFrom('users').select('email').where('id', '=', owner.id).executeTakeFirstOrThrow();
    expect(row.email).toBe('owner@example.org');
  }, 30_000);

  it('an edit that keeps the e-mail address cannot put it back, without the password, once another tab changed it', async () => {
    const owner = await createDonor(t, { email: 'first@example.org' });
    const { holder, other, untilWaiting } = second;
    await holder.query('begin');
    await holder.query('select id from users where id = $1 for update', [owner.id]);
    // One tab changes the address, with the password...
    const change = other.inject({
      method: 'PATCH',
      url: '/api/users/me',
      headers: owner.headers,
      payload: { email: 'second@example.org', current_password: TEST_PASSWORD },
    });
    await untilWaiting(1, 'users');
    // ...while another, still showing the first address, saves it unchanged: no password needed then.
    const keep = t.app.inject({
      method: 'PATCH',
      url: '/api/users/me',
      headers: owner.headers,
      payload: { email: 'first@example.org', first_name: 'Renamed' },
    });
    await untilWaiting(2, 'users');
    await holder.query('commit');

    const [changed, kept] = await Promise.all([change, keep]);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(kept.statusCode, kept.body).toBe(422);
    expect(kept.json().errors).toEqual({ current_password: 'Enter your current password to change your e-mail address' });
    const row = await t.db.selectFrom('users').select(['email', 'first_name']).where('id', '=', owner.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ email: 'second@example.org', first_name: 'Test' });
  }, 30_000);

  it('two transactions taking stock of two groups in opposite orders wait for each other, never deadlock', async () => {
    // A batch of writes holds every work's locks until it commits, so two instances' batches can
    // take two groups in either order. With a lock per group they deadlocked.
    const patient = await createPatient(t);
    const request = await insertRequest(t, patient.id, { bloodgroup: 'A+', units: 4, status: 'approved' });
    for (const bloodgroup of ['A+', 'B+'] as const) await insertUnits(t, { bloodgroup, count: 2, expires_on: '2026-04-30' });
    const issueOne = (trx: Transaction<DB>, bloodgroup: BloodGroup) =>
      issueUnitsFefo(trx, 'postgres', {
        bloodgroup,
        components: ['red_cells'],
        count: 1,
        requestId: request.id,
        today: TODAY,
        at: `${TODAY}T09:00:00.000Z`,
      });
    let firstTookA!: () => void;
    const firstHasA = new Promise<void>((resolve) => (firstTookA = resolve));
    let secondTookB!: () => void;
    const secondHasB = new Promise<void>((resolve) => (secondTookB = resolve));

    const first = t.db.transaction().execute(async (trx) => {
      const a = await issueOne(trx, 'A+');
      firstTookA();
      // Until the other has taken B+ (a lock per group) or waits for the stock lock (one for all).
      await Promise.race([secondHasB, second.untilWaiting(1, 'pg_advisory_xact_lock').catch(() => undefined)]);
      return [a, await issueOne(trx, 'B+')];
    });
    const other = firstHasA.then(() =>
      t.db.transaction().execute(async (trx) => {
        const b = await issueOne(trx, 'B+');
        secondTookB();
        return [b, await issueOne(trx, 'A+')];
      }),
    );

    const issued = (await Promise.all([first, other])).flat();
    expect(issued.map((ids) => ids?.length)).toEqual([1, 1, 1, 1]);
    const units = await t.db.selectFrom('blood_units').select(['status', 'request_id']).where('bloodgroup', 'in', ['A+', 'B+']).execute();
    expect(units).toEqual(Array.from({ length: 4 }, () => ({ status: 'issued', request_id: request.id })));
  }, 30_000);
});
