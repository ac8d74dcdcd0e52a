import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { addDays } from '@bloodbank/shared/dates';
import type { Callout } from '@bloodbank/shared/notifications';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createDonor, createPatient, type TestUser } from '../../../test/factories';
import { insertRequest, insertUnits } from '../../../test/admin-fixtures';
import { collect, donationForm, insertDonationRow, NEGATIVE_RESULTS, recordResults, setToday, staffOf } from '../../../test/donation-helpers';

/**
 * Low-stock call-outs (PRODUCT.md 3.8): only active, eligible, not deferred, opted-in donors whose
 * blood can be given to the group are told, each at most once in 14 days; staff see how many were
 * told and how many booked within 7 days. Each rule at its boundary.
 */

const TODAY = '2026-06-15';
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: `${TODAY}T09:00:00Z` });
  admin = await staffOf(t);
});
afterAll(() => t.close());
beforeEach(async () => {
  setToday(t, TODAY);
  // Every test starts with nobody told recently and only its own donors callable.
  await t.db.deleteFrom('callout_recipients').execute();
  await t.db.updateTable('users').set({ callouts: 0 }).where('role', '=', 'DONOR').execute();
});

const callOut = async (bloodgroup: string) => {
  const response = await t.app.inject({ method: 'POST', url: '/api/admin/callouts', headers: admin.headers, payload: { bloodgroup } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number; notified: number }>();
};
const calloutNotices = async (donor: TestUser) =>
  (await t.db.selectFrom('notifications').select(['title', 'body']).where('user_id', '=', donor.id).where('kind', '=', 'callout').execute());

describe('who is told (POST /api/admin/callouts)', () => {
  it('compatible donors only: an O- patient needs O- donors; an AB+ patient can take every group', async () => {
    const oNeg = await createDonor(t, { bloodgroup: 'O-' });
    const aPos = await createDonor(t, { bloodgroup: 'A+' });
    expect((await callOut('O-')).notified).toBe(1);
    expect(await calloutNotices(oNeg)).toEqual([
      {
        title: 'Blood for O- patients is needed',
        body: 'The blood bank is running short of blood for O- patients, and your O- blood can help them. Please book a donation soon: it can save up to three lives.',
      },
    ]);
    expect(await calloutNotices(aPos)).toEqual([]);
    await t.db.deleteFrom('callout_recipients').execute();
    expect((await callOut('AB+')).notified).toBe(2);
  });

  it('by the interval: the donor whose last collection was 90 days ago is told, 89 days ago is not', async () => {
    const rested = await createDonor(t, { bloodgroup: 'B+' });
    await insertDonationRow(t, rested.id, { date: addDays(TODAY, -90), bloodgroup: 'B+' });
    const tooSoon = await createDonor(t, { bloodgroup: 'B+' });
    await insertDonationRow(t, tooSoon.id, { date: addDays(TODAY, -89), bloodgroup: 'B+' });
    expect((await callOut('B+')).notified).toBe(1);
    expect(await calloutNotices(rested)).toHaveLength(1);
    expect(await calloutNotices(tooSoon)).toEqual([]);
  });

  it('not a donor deferred until tomorrow, but one whose deferral ends today; not one with a booking; not one who opted out; not a deactivated one', async () => {
    const deferredTillTomorrow = await createDonor(t, { bloodgroup: 'A-' });
    const deferredTillToday = await createDonor(t, { bloodgroup: 'A-' });
    for (const [donor, until] of [
      [deferredTillTomorrow, addDays(TODAY, 1)],
      [deferredTillToday, TODAY],
    ] as const) {
      await t.db
        .insertInto('deferrals')
        .values({ donor_id: donor.id, type: 'temporary', until, reason: 'Travel', source: 'manual', created_by: admin.id, created_at: `${TODAY}T08:00:00Z` })
        .execute();
    }
    const booked = await createDonor(t, { bloodgroup: 'A-' });
    expect((await t.app.inject({ method: 'POST', url: '/api/donations', headers: booked.headers, payload: donationForm(addDays(TODAY, 2)) })).statusCode).toBe(201);
    const optedOut = await createDonor(t, { bloodgroup: 'A-' });
    await t.app.inject({ method: 'PATCH', url: '/api/users/me/preferences', headers: optedOut.headers, payload: { callouts: false } });
    const gone = await createDonor(t, { bloodgroup: 'A-' });
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', gone.id).execute();

    expect((await callOut('A-')).notified).toBe(1);
    expect(await calloutNotices(deferredTillToday)).toHaveLength(1);
    for (const donor of [deferredTillTomorrow, booked, optedOut, gone]) expect(await calloutNotices(donor)).toEqual([]);
  });

  it('each donor at most once in 14 days: told again on the 15th day, not on the 14th', async () => {
    const donor = await createDonor(t, { bloodgroup: 'AB-' });
    expect((await callOut('AB-')).notified).toBe(1);
    setToday(t, addDays(TODAY, 14), '08:59:59');
    expect((await callOut('AB-')).notified).toBe(0);
    setToday(t, addDays(TODAY, 14), '09:00:01');
    expect((await callOut('AB-')).notified).toBe(1);
    expect(await calloutNotices(donor)).toHaveLength(2);
  });
});

describe('raised by low stock, and what staff see (GET /api/admin/callouts)', () => {
  it('an approval that leaves a group under its threshold calls its donors out once a day; the list counts who booked within 7 days', async () => {
    const patient = await createPatient(t);
    const willBook = await createDonor(t, { bloodgroup: 'O+' });
    const wontBook = await createDonor(t, { bloodgroup: 'O+' });
    await insertUnits(t, { bloodgroup: 'O+', count: 6, expires_on: addDays(TODAY, 20) });
    const approve = async (units: number) => {
      const request = await insertRequest(t, patient.id, { bloodgroup: 'O+', units });
      const response = await t.app.inject({ method: 'POST', url: `/api/admin/requests/${request.id}/approve`, headers: admin.headers, payload: {} });
      expect(response.statusCode, response.body).toBe(200);
    };
    // 6 -> 5: at the threshold (5), not under it.
    await approve(1);
    expect(await t.db.selectFrom('callouts').select('id').where('bloodgroup', '=', 'O+').execute()).toEqual([]);
    // 5 -> 4: under it.
    await approve(1);
    // 4 -> 3 the same day: no second call-out.
    await approve(1);
    const raised = await t.db.selectFrom('callouts').selectAll().where('bloodgroup', '=', 'O+').execute();
    expect(raised).toMatchObject([{ reason: 'low_stock', created_by: null, notified: 2 }]);

    setToday(t, addDays(TODAY, 7), '08:00:00');
    expect((await t.app.inject({ method: 'POST', url: '/api/donations', headers: willBook.headers, payload: donationForm(addDays(TODAY, 8)) })).statusCode).toBe(201);
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/callouts', headers: admin.headers });
    const row = list.json<Callout[]>().find((callout) => callout.id === raised[0]!.id);
    expect(row).toMatchObject({ bloodgroup: 'O+', reason: 'low_stock', created_by: null, notified: 2, booked_within_7_days: 1 });
    expect(await calloutNotices(wontBook)).toHaveLength(1);
  });

  it('raised by every way red-cell stock leaves the shelf: whole blood or chosen units discarded, a lookback hold, expiry', async () => {
    // No call-out of the last day (the earlier tests' staff ones) stands in the way of an automatic one.
    await t.db.deleteFrom('callouts').execute();
    const lowStockCallouts = async (bloodgroup: BloodGroup) =>
      (await t.db.selectFrom('callouts').select('reason').where('bloodgroup', '=', bloodgroup).execute()).map((row) => row.reason);
    const discard = async (payload: object) => {
      const response = await t.app.inject({ method: 'POST', url: '/api/admin/units/discard', headers: admin.headers, payload });
      expect(response.statusCode, response.body).toBe(200);
    };
    // Whole blood is red-cell stock too (PRODUCT.md 3.3): 5 -> 4 is under the threshold.
    await insertUnits(t, { bloodgroup: 'A+', count: 5, component: 'whole_blood', expires_on: addDays(TODAY, 20) });
    await discard({ bloodgroup: 'A+', component: 'whole_blood', count: 1, reason: 'Bag damaged' });
    expect(await lowStockCallouts('A+')).toEqual(['low_stock']);
    // Chosen units; plasma is not red-cell stock and raises nothing.
    const [chosen] = await insertUnits(t, { bloodgroup: 'B+', count: 5, expires_on: addDays(TODAY, 20) });
    const [plasma] = await insertUnits(t, { bloodgroup: 'A-', count: 1, component: 'plasma', expires_on: addDays(TODAY, 200) });
    await discard({ unit_ids: [chosen, plasma] });
    expect(await lowStockCallouts('B+')).toEqual(['low_stock']);
    expect(await lowStockCallouts('A-')).toEqual([]);
    // A reactive result holds the donor's unit of last month: O- falls from 5 to 4.
    const donor = await createDonor(t, { bloodgroup: 'O-' });
    const earlier = await insertDonationRow(t, donor.id, { date: addDays(TODAY, -100), bloodgroup: 'O-' });
    await insertUnits(t, { bloodgroup: 'O-', count: 1, expires_on: addDays(TODAY, 20), collected_on: addDays(TODAY, -30), donation_id: earlier });
    await insertUnits(t, { bloodgroup: 'O-', count: 4, expires_on: addDays(TODAY, 20) });
    const booked = await t.app.inject({ method: 'POST', url: '/api/donations', headers: donor.headers, payload: donationForm(TODAY) });
    const id = booked.json<{ id: number }>().id;
    expect((await collect(t, id)).statusCode).toBe(200);
    expect(await lowStockCallouts('O-')).toEqual([]);
    expect((await recordResults(t, id, { ...NEGATIVE_RESULTS, syphilis: 'reactive', bloodgroup: 'O-' })).json().lookback_unit_ids).toHaveLength(1);
    expect(await lowStockCallouts('O-')).toEqual(['low_stock']);
    // 5 AB+ units, one usable through today only: tomorrow's daily run finds AB+ short.
    await insertUnits(t, { bloodgroup: 'AB+', count: 1, expires_on: TODAY });
    await insertUnits(t, { bloodgroup: 'AB+', count: 4, expires_on: addDays(TODAY, 20) });
    setToday(t, addDays(TODAY, 1), '00:05:00');
    await t.app.runDailyWork();
    expect(await lowStockCallouts('AB+')).toEqual(['low_stock']);
  });

  it('is for admins only', async () => {
    const donor = await createDonor(t);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/callouts', headers: donor.headers, payload: { bloodgroup: 'O+' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/callouts', headers: donor.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/callouts', headers: admin.headers, payload: { bloodgroup: 'Z+' } })).statusCode).toBe(422);
  });
});
