import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatFeedDateWithYear } from './donation-activity';
import { addDays } from '@bloodbank/shared/dates';
import type { AdminDashboard, AdminDonation } from '@bloodbank/shared/admin';
import { FOLLOW_UP_MESSAGE } from '@bloodbank/shared/donation-lifecycle';
import type { DonorSummary } from '@bloodbank/shared/donation';
import type { GameState } from '@bloodbank/shared/game';
import type { NotificationList } from '@bloodbank/shared/notifications';
import type { StockEntry } from '@bloodbank/shared/blood-request';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient, type TestUser } from '../../../test/factories';
import { activitiesOf, auditEntries, insertRequest, insertUnits } from '../../../test/admin-fixtures';
import {
  book,
  collect,
  insertDonationRow,
  NEGATIVE_RESULTS,
  PASSING_SCREENING,
  recordResults,
  setToday,
  staffOf,
} from '../../../test/donation-helpers';

/**
 * The lifecycle of a donation (PRODUCT.md 3.2, 3.4, 3.7): booked, collected with screening (or
 * deferred), tested (released or discarded, with lookback), and deferrals. Every transition and
 * refusal at its boundary, on the engine the suite runs on (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL).
 */

const TODAY = '2026-03-10';
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: `${TODAY}T09:00:00Z` });
  admin = await staffOf(t);
});
afterAll(() => t.close());
beforeEach(() => setToday(t, TODAY));

const get = <T>(url: string, as: TestUser) =>
  t.app.inject({ method: 'GET', url, headers: as.headers }).then((response) => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  });
const post = (url: string, as: TestUser, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: as.headers, ...(payload ? { payload } : {}) });
const unitsOf = (donationId: number) =>
  t.db
    .selectFrom('blood_units')
    .select(['id', 'bloodgroup', 'status', 'hold_reason', 'collected_on', 'discard_reason'])
    .where('donation_id', '=', donationId)
    .orderBy('id')
    .execute();
const summaryOf = (donor: TestUser) => get<DonorSummary>('/api/donor/summary', donor);
const stockOf = async (bloodgroup: string) =>
  (await get<{ bloodgroup: string; units: number }[]>('/api/stock', admin)).find((row) => row.bloodgroup === bloodgroup)!.units;
const rewardOf = (donor: TestUser) => post('/api/game/donation-complete', donor);

describe('collection (POST /api/admin/donations/:id/collect)', () => {
  it('is refused the day before the booked date and accepted on it: units quarantined, not stock', async () => {
    const donor = await createDonor(t, { bloodgroup: 'B-' });
    const booked = await book(t, donor, addDays(TODAY, 1), { unit: 2 });

    const early = await collect(t, booked);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({
      detail: `This donation is booked for ${addDays(TODAY, 1)} and can be collected from that day.`,
      code: 'not_yet_due',
    });

    setToday(t, addDays(TODAY, 1));
    const stockBefore = await stockOf('B-');
    const onTheDay = await collect(t, booked);
    expect(onTheDay.statusCode, onTheDay.body).toBe(200);
    expect(onTheDay.json()).toEqual({ status: 'collected', unit_ids: [expect.any(Number), expect.any(Number)] });
    expect(await unitsOf(booked)).toEqual([
      expect.objectContaining({ bloodgroup: 'B-', status: 'quarantined', hold_reason: 'testing', collected_on: addDays(TODAY, 1) }),
      expect.objectContaining({ bloodgroup: 'B-', status: 'quarantined', hold_reason: 'testing', collected_on: addDays(TODAY, 1) }),
    ]);
    expect(await stockOf('B-')).toBe(stockBefore);
    expect((await summaryOf(donor)).latest_donation).toMatchObject({ id: booked, status: 'collected', collected_on: addDays(TODAY, 1) });

    // Twice: the second is refused.
    const again = await collect(t, booked);
    expect(again.statusCode).toBe(409);
    // It says what became of it: another admin's decision is not a mystery.
    expect(again.json().detail).toBe('This donation has already been decided: it was collected and awaits its test results.');
  });

  const THRESHOLD_CASES: [string, Record<string, number>, Record<string, number>, string][] = [
    ['haemoglobin', { haemoglobin_g_dl: 12.4 }, { haemoglobin_g_dl: 12.5 }, 'Haemoglobin 12.4 g/dL is below 12.5 g/dL.'],
    ['weight', { weight_kg: 49.9 }, { weight_kg: 50 }, 'Weight 49.9 kg is below 50 kg.'],
    ['low systolic', { bp_systolic: 89, bp_diastolic: 60 }, { bp_systolic: 90, bp_diastolic: 60 }, 'Systolic pressure 89 mmHg is below 90 mmHg.'],
    ['high systolic', { bp_systolic: 181 }, { bp_systolic: 180 }, 'Systolic pressure 181 mmHg is above 180 mmHg.'],
    ['low diastolic', { bp_diastolic: 49 }, { bp_diastolic: 50 }, 'Diastolic pressure 49 mmHg is below 50 mmHg.'],
    ['high diastolic', { bp_diastolic: 101 }, { bp_diastolic: 100 }, 'Diastolic pressure 101 mmHg is above 100 mmHg.'],
    ['low pulse', { pulse: 49 }, { pulse: 50 }, 'Pulse 49 beats/min is below 50 beats/min.'],
    ['high pulse', { pulse: 101 }, { pulse: 100 }, 'Pulse 101 beats/min is above 100 beats/min.'],
  ];

  it.each(THRESHOLD_CASES)('%s: just past the limit defers for 30 days, at the limit collects', async (_name, under, at, reason) => {
    const failing = await createDonor(t);
    const failedBooking = await book(t, failing, TODAY);
    const deferred = await collect(t, failedBooking, { ...PASSING_SCREENING, ...under });
    expect(deferred.statusCode, deferred.body).toBe(200);
    expect(deferred.json()).toMatchObject({
      status: 'deferred',
      reasons: [reason],
      deferral: { type: 'temporary', until: addDays(TODAY, 30), reason, source: 'screening', donation_id: failedBooking, active: true },
    });
    expect(await unitsOf(failedBooking)).toEqual([]);

    const passing = await createDonor(t);
    const passedBooking = await book(t, passing, TODAY);
    const collected = await collect(t, passedBooking, { ...PASSING_SCREENING, ...at });
    expect(collected.json().status).toBe('collected');
  });

  it('names every failed measurement, and the deferred donor sees when, never why', async () => {
    const donor = await createDonor(t);
    const booked = await book(t, donor, TODAY);
    const response = await collect(t, booked, { haemoglobin_g_dl: 11.8, weight_kg: 45, bp_systolic: 120, bp_diastolic: 80, pulse: 70 });
    expect(response.json().reasons).toEqual(['Haemoglobin 11.8 g/dL is below 12.5 g/dL.', 'Weight 45 kg is below 50 kg.']);
    const until = addDays(TODAY, 30);

    const summary = await summaryOf(donor);
    expect(summary).toMatchObject({
      deferred: { type: 'temporary', until },
      next_eligible_date: until,
      not_eligible_reason: `You are deferred from donating until ${until}.`,
      latest_donation: { id: booked, status: 'deferred', rejection_reason: null },
      made: 1,
      pending: 0,
      approved: 0,
      rejected: 1,
    });
    expect(JSON.stringify(summary)).not.toMatch(/aemoglobin|11\.8/);
    const mine = await t.app.inject({ method: 'GET', url: '/api/donations/mine', headers: donor.headers });
    expect(mine.body).not.toMatch(/aemoglobin|11\.8/);
    // The screening is the admin's to see.
    const adminView = await get<{ items: AdminDonation[] }>(`/api/admin/donations?donor_id=${donor.id}`, admin);
    expect(adminView.items[0]).toMatchObject({
      status: 'deferred',
      screening: { haemoglobin_g_dl: 11.8, weight_kg: 45, bp_systolic: 120, bp_diastolic: 80, pulse: 70, passed: false, recorded_by: admin.username },
      outcome_reason: 'Haemoglobin 11.8 g/dL is below 12.5 g/dL. Weight 45 kg is below 50 kg.',
    });

    // Booking while deferred: refused until the deferral's end, which is the first day allowed.
    const refused = await post('/api/donations', donor, { unit: 1, date: addDays(until, -1), disease: 'None', confirmation: true });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      detail: `You are deferred from donating until ${until}.`,
      code: 'deferred',
      errors: { date: `You are deferred from donating until ${until}.` },
    });
    setToday(t, addDays(until, -5));
    expect((await post('/api/donations', donor, { unit: 1, date: until, disease: 'None', confirmation: true })).statusCode).toBe(201);
    // No reward for a deferred booking.
    expect((await rewardOf(donor)).statusCode).toBe(409);
  });

  it('refuses physically impossible values with 422 per field, and changes nothing', async () => {
    const donor = await createDonor(t);
    const booked = await book(t, donor, TODAY);
    const response = await collect(t, booked, { haemoglobin_g_dl: 40, weight_kg: 'heavy', bp_systolic: 80, bp_diastolic: 90, pulse: 70.5 });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      haemoglobin_g_dl: 'Haemoglobin must be between 3 and 25 g/dL',
      weight_kg: 'Please enter a number',
      pulse: 'Please enter a whole number',
    });
    const inverted = await collect(t, booked, { ...PASSING_SCREENING, bp_systolic: 80, bp_diastolic: 90 });
    expect(inverted.statusCode).toBe(422);
    expect(inverted.json().errors).toEqual({ bp_diastolic: 'Diastolic pressure must be lower than systolic pressure' });
    const missing = await collect(t, booked, { haemoglobin_g_dl: 13 });
    expect(missing.json().errors).toMatchObject({ weight_kg: 'Weight is required', pulse: 'Pulse is required' });
    // A field of spaces is as empty as a blank one.
    const blank = await collect(t, booked, { ...PASSING_SCREENING, pulse: '   ' });
    expect(blank.json().errors).toEqual({ pulse: 'Pulse is required' });
    expect((await summaryOf(donor)).latest_donation?.status).toBe('pending');
  });

  it('reads a decimal comma as a point ("13,5" g/dL), as many scales and hands write it', async () => {
    const donor = await createDonor(t);
    const booked = await book(t, donor, TODAY);
    const response = await collect(t, booked, { ...PASSING_SCREENING, haemoglobin_g_dl: '13,5', weight_kg: ' 62,4 ' });
    expect(response.statusCode, response.body).toBe(200);
    const screening = await t.db
      .selectFrom('donation_screenings')
      .select(['haemoglobin_g_dl', 'weight_kg'])
      .where('donation_id', '=', booked)
      .executeTakeFirstOrThrow();
    expect(screening).toEqual({ haemoglobin_g_dl: 13.5, weight_kg: 62.4 });
  });

  it('uses the configured thresholds and deferral length', async () => {
    const strict = await createTestApp({
      now: `${TODAY}T09:00:00Z`,
      env: { SCREENING_MIN_HAEMOGLOBIN_G_DL: '13.5', SCREENING_DEFERRAL_DAYS: '56' },
    });
    try {
      const donor = await createDonor(strict);
      const booked = await book(strict, donor, TODAY);
      const thresholds = await strict.app.inject({ method: 'GET', url: '/api/admin/screening-thresholds', headers: (await staffOf(strict)).headers });
      expect(thresholds.json()).toMatchObject({ haemoglobin_min_g_dl: 13.5, weight_min_kg: 50, deferral_days: 56 });
      const response = await collect(strict, booked, { ...PASSING_SCREENING, haemoglobin_g_dl: 13.4 });
      expect(response.json()).toMatchObject({ status: 'deferred', deferral: { until: addDays(TODAY, 56) } });
    } finally {
      await strict.close();
    }
  });

  it('collects once when two staff record the same collection at the same moment', async () => {
    const donor = await createDonor(t);
    const booked = await book(t, donor, TODAY, { unit: 2 });
    const secondAdmin = await createAdmin(t);
    const responses = await Promise.all([
      collect(t, booked),
      post(`/api/admin/donations/${booked}/collect`, secondAdmin, PASSING_SCREENING),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(await unitsOf(booked)).toHaveLength(2);
    const rewards = await t.db.selectFrom('game_rewards').select('donation_id').where('donation_id', '=', booked).execute();
    expect(rewards).toHaveLength(1);
  });
});

describe('Blood Hero credits at collection (PRODUCT.md 3.4)', () => {
  it('a booking earns nothing; the collection credits exactly 100 + First Time Hero, shown once', async () => {
    const donor = await createDonor(t);
    const booked = await book(t, donor, TODAY);
    const afterBooking = await rewardOf(donor);
    expect(afterBooking.statusCode).toBe(409);
    expect(afterBooking.json().detail).toBe('No completed donation to reward');

    expect((await collect(t, booked)).statusCode).toBe(200);
    const reward = await rewardOf(donor);
    expect(reward.statusCode).toBe(200);
    expect(reward.json()).toMatchObject({
      profile: { points: 200, level: 2, donation_streak: 1 },
      points_credited: 100,
      achievements: [{ achievement: { name: 'First Time Hero', points_reward: 100 } }],
    });
    expect((await rewardOf(donor)).statusCode).toBe(409);

    const state = await get<GameState>('/api/game/state', donor);
    // Level 2 spans 100-299: the bar reads (200 - 100) / (300 - 100) = 50%.
    expect(state).toMatchObject({ level_start_points: 100, next_level_points: 300, total_donations: 1 });

    // A confidential result never changes the public score.
    expect((await recordResults(t, booked, { ...NEGATIVE_RESULTS, hiv: 'reactive', bloodgroup: 'O+' })).statusCode).toBe(200);
    expect((await get<GameState>('/api/game/state', donor)).profile).toMatchObject({ points: 200, level: 2 });
    expect((await rewardOf(donor)).statusCode).toBe(409);
  });

  it('a rejected or cancelled booking earns nothing', async () => {
    const rejectedDonor = await createDonor(t);
    const rejected = await book(t, rejectedDonor, TODAY);
    expect((await post(`/api/admin/donations/${rejected}/reject`, admin, { reason: 'Unwell' })).statusCode).toBe(200);
    expect((await rewardOf(rejectedDonor)).statusCode).toBe(409);

    const cancellingDonor = await createDonor(t);
    const cancelled = await book(t, cancellingDonor, TODAY);
    expect((await post(`/api/donations/${cancelled}/cancel`, cancellingDonor)).statusCode).toBe(200);
    expect((await rewardOf(cancellingDonor)).statusCode).toBe(409);
  });

  it('a booking deferred at screening earns nothing: points, level and achievements stay as they were', async () => {
    // A donor with one collection behind them (100 + First Time Hero = 200 points).
    const donor = await createDonor(t);
    setToday(t, addDays(TODAY, -100));
    const first = await book(t, donor, addDays(TODAY, -100));
    expect((await collect(t, first)).statusCode).toBe(200);
    expect((await rewardOf(donor)).statusCode).toBe(200);
    setToday(t, TODAY);
    const before = await get<GameState>('/api/game/state', donor);
    expect(before).toMatchObject({ profile: { points: 200, level: 2, donation_streak: 1 }, total_donations: 1 });
    expect(before.achievements.map((earned) => earned.achievement.name)).toEqual(['First Time Hero']);

    const booked = await book(t, donor, TODAY);
    const deferred = await collect(t, booked, { ...PASSING_SCREENING, haemoglobin_g_dl: 12.4 });
    expect(deferred.json()).toMatchObject({ status: 'deferred' });
    const reward = await rewardOf(donor);
    expect(reward.statusCode).toBe(409);
    expect(reward.json().detail).toBe('No completed donation to reward');
    const after = await get<GameState>('/api/game/state', donor);
    expect(after).toMatchObject({
      profile: { points: 200, level: 2, donation_streak: 1 },
      level_start_points: 100,
      next_level_points: 300,
      total_donations: 1,
    });
    expect(after.achievements.map((earned) => earned.achievement.name)).toEqual(['First Time Hero']);
    expect(await t.db.selectFrom('game_rewards').select('donation_id').where('donation_id', '=', booked).execute()).toEqual([]);

    // A first-time donor (with a profile at 0 points) deferred at screening: no points, no First Time Hero.
    const newcomer = await createDonor(t);
    expect((await post('/api/game/profiles', newcomer)).statusCode).toBe(201);
    const newcomerBooking = await book(t, newcomer, TODAY);
    expect((await collect(t, newcomerBooking, { ...PASSING_SCREENING, pulse: 101 })).json().status).toBe('deferred');
    expect((await rewardOf(newcomer)).statusCode).toBe(409);
    const newcomerState = await get<GameState>('/api/game/state', newcomer);
    expect(newcomerState).toMatchObject({ profile: { points: 0, level: 1, donation_streak: 0 }, total_donations: 0, achievements: [] });
  });

  it('reports where each level starts and the next begins as points grow', async () => {
    const donor = await createDonor(t);
    const expected = [
      // After 1 collection: 100 + First Time Hero; 2: 200 + 100; 3: 300 + 100 + Regular Hero 300 +
      // Consistent Donor 500 (three within 180 days of each other).
      { points: 200, level: 2, start: 100, next: 300 },
      { points: 300, level: 3, start: 300, next: 600 },
      { points: 1200, level: 5, start: 1000, next: 1500 },
    ];
    let date = TODAY;
    for (const step of expected) {
      setToday(t, date);
      const booked = await book(t, donor, date);
      expect((await collect(t, booked)).statusCode).toBe(200);
      const state = await get<GameState>('/api/game/state', donor);
      expect({
        points: state.profile.points,
        level: state.profile.level,
        start: state.level_start_points,
        next: state.next_level_points,
      }).toEqual(step);
      date = addDays(date, 91);
    }
  });
});

/**
 * A reactive HIV, HBV or HCV result as the donor sees it: a permanent deferral, the follow-up text in
 * their feed and notifications, never the result (`hidden`), and a booking refused even a year on.
 */
async function expectPermanentDeferralShownAsFollowUpOnly(donor: TestUser, booked: number, hidden: RegExp) {
  const summary = await summaryOf(donor);
  expect(summary).toMatchObject({
    deferred: { type: 'permanent', until: null },
    next_eligible_date: null,
    not_eligible_reason: 'You cannot donate at this time. Please contact the blood bank.',
    // "discarded" would tell the donor the test was reactive: they read "follow_up".
    latest_donation: { id: booked, status: 'follow_up', rejection_reason: null },
  });
  expect(summary.activities.map((activity) => activity.message)).toContain(FOLLOW_UP_MESSAGE);
  const notifications = await get<NotificationList>('/api/notifications', donor);
  expect(notifications.items.map((item) => item.body)).toContain(FOLLOW_UP_MESSAGE);
  const donorSees =
    JSON.stringify(summary) +
    JSON.stringify(notifications) +
    (await t.app.inject({ method: 'GET', url: '/api/donations/mine', headers: donor.headers })).body;
  expect(donorSees).not.toMatch(hidden);
  expect(donorSees).not.toMatch(/discarded/i);
  setToday(t, addDays(TODAY, 400));
  const refused = await post('/api/donations', donor, { unit: 1, date: addDays(TODAY, 400), disease: 'None', confirmation: true });
  expect(refused.statusCode).toBe(422);
  expect(refused.json().detail).toBe('You cannot donate at this time. Please contact the blood bank.');
}

describe('test results (POST /api/admin/donations/:id/results)', () => {
  it('all negative: released, its units become stock; a second recording is refused', async () => {
    const donor = await createDonor(t, { bloodgroup: 'AB-' });
    const booked = await book(t, donor, TODAY, { unit: 2 });
    const early = await recordResults(t, booked, { ...NEGATIVE_RESULTS, bloodgroup: 'AB-' });
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toBe('Test results can only be recorded for a collected donation.');

    await collect(t, booked);
    const stockBefore = await stockOf('AB-');
    const released = await recordResults(t, booked, { ...NEGATIVE_RESULTS, bloodgroup: 'AB-' });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ status: 'released', corrected_bloodgroup: null, deferral: null, lookback_unit_ids: [] });
    expect(released.json().unit_ids).toHaveLength(2);
    expect(await stockOf('AB-')).toBe(stockBefore + 2);
    expect((await unitsOf(booked)).map((unit) => [unit.status, unit.hold_reason])).toEqual([
      ['available', null],
      ['available', null],
    ]);
    expect((await activitiesOf(t, donor.id)).at(-1)?.message).toBe(
      'Your donation of 10 Mar passed its tests and is ready to save lives. Thank you!',
    );

    const twice = await recordResults(t, booked, { ...NEGATIVE_RESULTS, bloodgroup: 'AB-' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().detail).toBe('Test results have already been recorded for this donation.');
  });

  it('requires each of the four results and the group', async () => {
    const donor = await createDonor(t);
    const booked = await book(t, donor, TODAY);
    await collect(t, booked);
    const response = await recordResults(t, booked, { hiv: 'negative', hbv: 'positive' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      hbv: 'Choose negative or reactive',
      hcv: 'Hepatitis C (HCV) result is required',
      syphilis: 'Syphilis result is required',
      bloodgroup: 'Confirmed blood group is required',
    });
  });

  it("a confirmed group that differs corrects the donor's group and the units, audited and told to the donor", async () => {
    const donor = await createDonor(t, { bloodgroup: 'A+' });
    const booked = await book(t, donor, TODAY);
    await collect(t, booked);
    const response = await recordResults(t, booked, { ...NEGATIVE_RESULTS, bloodgroup: 'A-' });
    expect(response.json()).toMatchObject({ status: 'released', corrected_bloodgroup: 'A-' });
    expect((await unitsOf(booked)).map((unit) => unit.bloodgroup)).toEqual(['A-']);
    const me = await get<{ bloodgroup: string }>('/api/users/me', donor);
    expect(me.bloodgroup).toBe('A-');
    const messages = (await activitiesOf(t, donor.id)).map((activity) => activity.message);
    expect(messages).toContain('The laboratory confirmed your blood group as A-; your record now says A-.');
    const [audit] = await auditEntries(t, 'donor.bloodgroup_corrected');
    expect(audit).toMatchObject({ entity_id: donor.id, detail: { before: { bloodgroup: 'A+' }, after: { bloodgroup: 'A-', donation_id: booked } } });
  });

  it('a confirmed group that differs with a reactive result: the record follows it, and the donor hears only the follow-up text', async () => {
    const donor = await createDonor(t, { bloodgroup: 'B+' });
    const booked = await book(t, donor, TODAY);
    await collect(t, booked);
    const before = (await get<NotificationList>('/api/notifications', donor)).items.length;
    const response = await recordResults(t, booked, { ...NEGATIVE_RESULTS, syphilis: 'reactive', bloodgroup: 'B-' });
    expect(response.json()).toMatchObject({ status: 'discarded', corrected_bloodgroup: 'B-' });
    expect((await get<{ bloodgroup: string }>('/api/users/me', donor)).bloodgroup).toBe('B-');
    const notifications = (await get<NotificationList>('/api/notifications', donor)).items;
    expect(notifications.slice(0, notifications.length - before).map((item) => item.body)).toEqual([FOLLOW_UP_MESSAGE]);
    expect((await activitiesOf(t, donor.id)).map((activity) => activity.message)).not.toContain(
      'The laboratory confirmed your blood group as B-; your record now says B-.',
    );
  });

  it("the admin's list answers the group a donation was booked with and the donor's group now, apart", async () => {
    const donor = await createDonor(t, { bloodgroup: 'A+' });
    const booked = await book(t, donor, TODAY);
    await collect(t, booked);
    // Staff correct the donor's record after the booking: the units still carry A+.
    await t.db.updateTable('users').set({ bloodgroup: 'B-' }).where('id', '=', donor.id).execute();
    const awaiting = await get<{ items: AdminDonation[] }>('/api/admin/donations?status=collected', admin);
    expect(awaiting.items.find((item) => item.id === booked)).toMatchObject({ bloodgroup: 'A+', donor_bloodgroup: 'B-' });
  });

  it('reactive HIV: discarded, permanent deferral, lookback holds on the last 12 months, the donor told only to get in touch', async () => {
    const donor = await createDonor(t, { bloodgroup: 'O-' });
    // Earlier donations: one 200 days ago (in stock), one 400 days ago (outside the lookback).
    const recent = await insertDonationRow(t, donor.id, { date: addDays(TODAY, -100), bloodgroup: 'O-' });
    const old = await insertDonationRow(t, donor.id, { date: addDays(TODAY, -400), bloodgroup: 'O-' });
    const unitOf = async (donationId: number, collectedOn: string) => {
      const row = await t.db
        .insertInto('blood_units')
        .values({
          bloodgroup: 'O-',
          source: 'donation',
          donation_id: donationId,
          collected_on: collectedOn,
          expires_on: addDays(TODAY, 300),
          status: 'available',
          hold_reason: null,
          request_id: null,
          issued_at: null,
          discarded_at: null,
          discard_reason: null,
          created_at: `${collectedOn}T09:00:00.000Z`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const recentUnit = await unitOf(recent, addDays(TODAY, -100));
    const oldUnit = await unitOf(old, addDays(TODAY, -400));
    const stockBefore = await stockOf('O-');

    const booked = await book(t, donor, TODAY);
    await collect(t, booked);
    const pointsBefore = (await get<GameState>('/api/game/state', donor)).profile.points;
    const response = await recordResults(t, booked, { ...NEGATIVE_RESULTS, hiv: 'reactive', bloodgroup: 'O-' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'discarded',
      deferral: { type: 'permanent', until: null, source: 'test', reason: 'Reactive: HIV.' },
      lookback_unit_ids: [recentUnit],
    });
    expect((await unitsOf(booked)).map((unit) => [unit.status, unit.discard_reason])).toEqual([['discarded', 'Reactive screening test']]);
    const held = await t.db.selectFrom('blood_units').select(['id', 'status', 'hold_reason']).where('id', 'in', [recentUnit, oldUnit]).orderBy('id').execute();
    expect(held).toEqual([
      { id: recentUnit, status: 'quarantined', hold_reason: 'lookback' },
      { id: oldUnit, status: 'available', hold_reason: null },
    ]);
    expect(await stockOf('O-')).toBe(stockBefore - 1);
    expect((await get<GameState>('/api/game/state', donor)).profile.points).toBe(pointsBefore);
    // The dashboard counts the held unit as on hold, not as in testing (nothing of this donor awaits results).
    const dashboard = await get<AdminDashboard>('/api/admin/dashboard', admin);
    expect(dashboard.inventory.find((row) => row.bloodgroup === 'O-')).toMatchObject({ in_testing: 0, on_hold: 1 });
    // Manage Blood's list of held units names whose hold it is.
    const listed = await get<{ items: Array<{ id: number; donor: unknown }> }>('/api/admin/units?status=quarantined&bloodgroup=O-&pageSize=100', admin);
    expect(listed.items.find((unit) => unit.id === recentUnit)?.donor).toEqual({ id: donor.id, name: expect.any(String), username: donor.username });

    await expectPermanentDeferralShownAsFollowUpOnly(donor, booked, /reactive|HIV/i);
  });

  it("reactive HCV after the donor booked their next donation: that booking is cancelled, and the donor still learns only to get in touch", async () => {
    const donor = await createDonor(t, { bloodgroup: 'A-' });
    const booked = await book(t, donor, TODAY);
    await collect(t, booked);
    // The next donation, booked on the first day the interval allows.
    const next = await book(t, donor, addDays(TODAY, 90));
    const notificationsBefore = (await get<NotificationList>('/api/notifications', donor)).items.length;

    const response = await recordResults(t, booked, { ...NEGATIVE_RESULTS, hcv: 'reactive', bloodgroup: 'A-' });
    expect(response.statusCode, response.body).toBe(200);
    const nextRow = await t.db.selectFrom('donations').select(['status', 'outcome_reason']).where('id', '=', next).executeTakeFirstOrThrow();
    // Staff read why beside "Cancelled by staff"; the donor's feed never says why (a test).
    expect(nextRow).toEqual({ status: 'cancelled', outcome_reason: 'The donor was deferred.' });
    expect((await activitiesOf(t, donor.id)).map((activity) => activity.message)).toContain(
      'Your booking for 8 Jun was cancelled: you cannot donate on that day.',
    );
    // Two new notifications: the follow-up, and the cancelled booking (or the donor would come to
    // it, with no reminder), neither with a reason; no deferral notice.
    const notifications = (await get<NotificationList>('/api/notifications', donor)).items;
    expect(notifications.length).toBe(notificationsBefore + 2);
    expect(notifications.slice(0, 2).map((item) => item.body)).toEqual([
      'Your booking for 8 Jun is cancelled. Please contact the blood bank.',
      FOLLOW_UP_MESSAGE,
    ]);
    const mine = (await t.app.inject({ method: 'GET', url: '/api/donations/mine', headers: donor.headers })).body;
    expect(JSON.stringify(await summaryOf(donor)) + JSON.stringify(notifications) + mine).not.toMatch(/reactive|HCV|deferred by/i);
  });

  it('reactive syphilis alone: a deferral of 365 days', async () => {
    const donor = await createDonor(t);
    const booked = await book(t, donor, TODAY);
    await collect(t, booked);
    const response = await recordResults(t, booked, { ...NEGATIVE_RESULTS, syphilis: 'reactive', bloodgroup: 'O+' });
    expect(response.json().deferral).toMatchObject({ type: 'temporary', until: addDays(TODAY, 365), reason: 'Reactive: Syphilis.' });
    expect((await summaryOf(donor)).next_eligible_date).toBe(addDays(TODAY, 365));
  });

  it('reactive HBV alone: discarded, a permanent deferral like HIV, and the donor sees only the follow-up text', async () => {
    const donor = await createDonor(t, { bloodgroup: 'B+' });
    const booked = await book(t, donor, TODAY);
    await collect(t, booked);
    const response = await recordResults(t, booked, { ...NEGATIVE_RESULTS, hbv: 'reactive', bloodgroup: 'B+' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'discarded',
      deferral: { type: 'permanent', until: null, source: 'test', reason: 'Reactive: Hepatitis B (HBV).', active: true },
    });
    expect((await unitsOf(booked)).map((unit) => [unit.status, unit.discard_reason])).toEqual([['discarded', 'Reactive screening test']]);

    await expectPermanentDeferralShownAsFollowUpOnly(donor, booked, /reactive|HBV|hepatitis/i);
  });

  it('lookback holds a unit collected 365 days before the reactive result, not one collected 366 days before', async () => {
    const donor = await createDonor(t, { bloodgroup: 'A-' });
    // 12 months before 2026-03-10 is 2025-03-10, 365 days earlier: the first day inside the window.
    const inside = addDays(TODAY, -365);
    const outside = addDays(TODAY, -366);
    expect(inside).toBe('2025-03-10');
    const unitCollectedOn = async (date: string) => {
      const donationId = await insertDonationRow(t, donor.id, { date, bloodgroup: 'A-' });
      const [unitId] = await insertUnits(t, { bloodgroup: 'A-', component: 'plasma', donation_id: donationId, collected_on: date, expires_on: addDays(TODAY, 30) });
      return unitId!;
    };
    const outsideUnit = await unitCollectedOn(outside);
    const insideUnit = await unitCollectedOn(inside);
    const plasmaBefore = (await get<StockEntry[]>('/api/stock', admin)).find((row) => row.bloodgroup === 'A-')!.components.plasma;

    const booked = await book(t, donor, TODAY);
    await collect(t, booked);
    const response = await recordResults(t, booked, { ...NEGATIVE_RESULTS, syphilis: 'reactive', bloodgroup: 'A-' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().lookback_unit_ids).toEqual([insideUnit]);
    const units = await t.db
      .selectFrom('blood_units')
      .select(['id', 'status', 'hold_reason'])
      .where('id', 'in', [insideUnit, outsideUnit])
      .orderBy('id')
      .execute();
    expect(units).toEqual([
      { id: outsideUnit, status: 'available', hold_reason: null },
      { id: insideUnit, status: 'quarantined', hold_reason: 'lookback' },
    ]);
    const plasmaAfter = (await get<StockEntry[]>('/api/stock', admin)).find((row) => row.bloodgroup === 'A-')!.components.plasma;
    expect(plasmaAfter).toBe(plasmaBefore - 1);
  });

  it('records once when two staff record results at the same moment', async () => {
    const donor = await createDonor(t);
    const booked = await book(t, donor, TODAY);
    await collect(t, booked);
    const secondAdmin = await createAdmin(t);
    const responses = await Promise.all([
      recordResults(t, booked, { ...NEGATIVE_RESULTS, bloodgroup: 'O+' }),
      post(`/api/admin/donations/${booked}/results`, secondAdmin, { ...NEGATIVE_RESULTS, hiv: 'reactive', bloodgroup: 'O+' }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(await t.db.selectFrom('donation_test_results').select('donation_id').where('donation_id', '=', booked).execute()).toHaveLength(1);
  });
});

describe('lookback holds (POST /api/admin/units/:id/release)', () => {
  async function heldUnitOfDonorWithReactiveResult(releasedEarlier: boolean) {
    const donor = await createDonor(t);
    const earlier = await book(t, donor, TODAY);
    await collect(t, earlier);
    if (releasedEarlier) await recordResults(t, earlier, { ...NEGATIVE_RESULTS, bloodgroup: 'O+' });
    // A second collection (the first's date is past the interval only for the test's purpose).
    await t.db.updateTable('donations').set({ collected_on: addDays(TODAY, -120) }).where('id', '=', earlier).execute();
    setToday(t, addDays(TODAY, 1));
    const later = await book(t, donor, addDays(TODAY, 1));
    await collect(t, later);
    const outcome = await recordResults(t, later, { ...NEGATIVE_RESULTS, hcv: 'reactive', bloodgroup: 'O+' });
    const [unitId] = outcome.json().lookback_unit_ids as number[];
    return unitId!;
  }

  it('releases a held unit of a released donation back to stock, once', async () => {
    const unitId = await heldUnitOfDonorWithReactiveResult(true);
    const released = await post(`/api/admin/units/${unitId}/release`, admin);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ id: unitId, status: 'available', hold_reason: null });
    const again = await post(`/api/admin/units/${unitId}/release`, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Only a unit on a lookback hold can be released.');
    expect((await auditEntries(t, 'unit.released')).some((entry) => entry.entity_id === unitId)).toBe(true);
  });

  it('sends a held unit whose own donation is untested back to testing, never to stock', async () => {
    const unitId = await heldUnitOfDonorWithReactiveResult(false);
    const released = await post(`/api/admin/units/${unitId}/release`, admin);
    expect(released.json()).toMatchObject({ status: 'quarantined', hold_reason: 'testing' });
  });

  it('lets staff discard a held unit, and answers 404 for an unknown unit', async () => {
    const unitId = await heldUnitOfDonorWithReactiveResult(true);
    const discarded = await post('/api/admin/units/discard', admin, { unit_ids: [unitId], reason: 'Lookback' });
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect((await post('/api/admin/units/999999/release', admin)).statusCode).toBe(404);
  });
});

describe('stock never holds a quarantined, held or untested unit', () => {
  it('approving a request while a donation is in testing does not issue its units', async () => {
    const local = await createTestApp({ now: `${TODAY}T09:00:00Z` });
    try {
      const donor = await createDonor(local, { bloodgroup: 'A-' });
      const booked = await book(local, donor, TODAY, { unit: 2 });
      expect((await collect(local, booked)).statusCode).toBe(200);
      const patient = await createPatient(local);
      const request = await insertRequest(local, patient.id, { bloodgroup: 'A-', units: 1 });
      const localAdmin = await staffOf(local);
      const approve = await local.app.inject({
        method: 'POST',
        url: `/api/admin/requests/${request.id}/approve`,
        headers: localAdmin.headers,
        payload: { bloodgroup: 'A-' },
      });
      expect(approve.statusCode).toBe(409);
      expect(approve.json()).toMatchObject({ code: 'insufficient_stock', available: 0 });

      // Released, the same units serve it.
      await recordResults(local, booked, { ...NEGATIVE_RESULTS, bloodgroup: 'A-' });
      const approved = await local.app.inject({
        method: 'POST',
        url: `/api/admin/requests/${request.id}/approve`,
        headers: localAdmin.headers,
        payload: { bloodgroup: 'A-' },
      });
      expect(approved.statusCode, approved.body).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe('cancelling a booking (POST /api/donations/:id/cancel)', () => {
  it("cancels the donor's own pending booking once; another donor's is refused; staff cannot collect it", async () => {
    const donor = await createDonor(t);
    const stranger = await createDonor(t);
    const booked = await book(t, donor, addDays(TODAY, 3));
    const refused = await post(`/api/donations/${booked}/cancel`, stranger);
    expect(refused.statusCode).toBe(403);

    const cancelled = await post(`/api/donations/${booked}/cancel`, donor);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ id: booked, status: 'cancelled' });
    const twice = await post(`/api/donations/${booked}/cancel`, donor);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().detail).toBe('This booking was cancelled. It can no longer be cancelled.');
    setToday(t, addDays(TODAY, 3));
    expect((await collect(t, booked)).statusCode).toBe(409);
    expect((await post('/api/donations/999999/cancel', donor)).statusCode).toBe(404);

    // Not counted as made; the donor may book again at once.
    expect(await summaryOf(donor)).toMatchObject({ made: 0, pending: 0, next_eligible_date: addDays(TODAY, 3) });
    expect((await activitiesOf(t, donor.id)).at(-1)?.message).toBe('You cancelled your booking for 13 Mar.');
    await book(t, donor, addDays(TODAY, 3));
  });
});

describe('deferrals by hand (PRODUCT.md 3.7)', () => {
  it('lifting a deferral that has ended tells the donor nothing more; one with a booking after it keeps the booking', async () => {
    const lift = async (id: number) => expect((await post(`/api/admin/deferrals/${id}/lift`, admin, { reason: 'Cleared' })).statusCode).toBe(200);
    const notificationsOf = async (donor: TestUser) => (await get<NotificationList>('/api/notifications', donor)).items;
    // Ended yesterday: the daily run has told them they can donate again.
    const ended = await createDonor(t);
    const short = await post(`/api/admin/donors/${ended.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 2), reason: 'Cold' });
    setToday(t, addDays(TODAY, 3));
    const before = await notificationsOf(ended);
    await lift(short.json().id);
    expect(await notificationsOf(ended)).toEqual(before);

    // Deferred until the 20th, booked for the 21st: the lift says the booking stands.
    setToday(t, TODAY);
    const booked = await createDonor(t);
    const long = await post(`/api/admin/donors/${booked.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 20), reason: 'Travel' });
    await book(t, booked, addDays(TODAY, 21));
    await lift(long.json().id);
    const [latest] = await notificationsOf(booked);
    expect(latest).toMatchObject({ title: 'Your deferral was lifted', body: 'Your deferral was lifted: your booking stands.' });
  });

  it('a short deferral over a permanent one: the donor is told the permanent one, never invited to book', async () => {
    const donor = await createDonor(t);
    expect((await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'permanent', reason: 'Medical history' })).statusCode).toBe(201);
    expect((await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 10), reason: 'Antibiotics' })).statusCode).toBe(201);
    const [latest] = (await get<NotificationList>('/api/notifications', donor)).items;
    expect(latest!.body).toBe('You cannot donate at this time. Please contact the blood bank.');
    expect((await activitiesOf(t, donor.id)).at(-1)?.message).toBe('You cannot donate at this time. Please contact the blood bank.');
  });

  it('defers until a date (the first day allowed), lists it, and lifts it with a reason once', async () => {
    const donor = await createDonor(t);
    const until = addDays(TODAY, 20);
    const created = await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until, reason: 'Recent tattoo' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ type: 'temporary', until, reason: 'Recent tattoo', source: 'manual', active: true, created_by: admin.username });

    const before = await post('/api/donations', donor, { unit: 1, date: addDays(until, -1), disease: 'None', confirmation: true });
    expect(before.statusCode).toBe(422);
    expect(before.json().detail).toBe(`You are deferred from donating until ${until}.`);
    setToday(t, addDays(until, -2));
    const onTheDay = await post('/api/donations', donor, { unit: 1, date: until, disease: 'None', confirmation: true });
    expect(onTheDay.statusCode).toBe(201);
    await post(`/api/donations/${onTheDay.json().id}/cancel`, donor);

    const list = await get<{ id: number }[]>(`/api/admin/donors/${donor.id}/deferrals`, admin);
    expect(list.map((deferral) => deferral.id)).toEqual([created.json().id]);

    const lifted = await post(`/api/admin/deferrals/${created.json().id}/lift`, admin, { reason: 'Cleared by the doctor' });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json()).toMatchObject({ active: false, lift_reason: 'Cleared by the doctor', lifted_by: admin.username });
    expect((await post(`/api/admin/deferrals/${created.json().id}/lift`, admin, { reason: 'Again' })).statusCode).toBe(409);
    expect((await summaryOf(donor)).deferred).toBeNull();
    expect((await activitiesOf(t, donor.id)).map((activity) => activity.message)).toContain(
      'Your deferral was lifted: you can book a donation again.',
    );
    expect((await auditEntries(t, 'deferral.lifted')).some((entry) => entry.entity_id === created.json().id)).toBe(true);
  });

  it('a permanent deferral refuses every date, and lifting it lets the donor book', async () => {
    const donor = await createDonor(t);
    const created = await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'permanent', reason: 'Medical history' });
    expect(created.json()).toMatchObject({ type: 'permanent', until: null });
    const refused = await post('/api/donations', donor, { unit: 1, date: addDays(TODAY, 80), disease: 'None', confirmation: true });
    expect(refused.json().detail).toBe('You cannot donate at this time. Please contact the blood bank.');
    expect((await summaryOf(donor)).next_eligible_date).toBeNull();
    await post(`/api/admin/deferrals/${created.json().id}/lift`, admin, { reason: 'Reviewed' });
    await book(t, donor, TODAY);
  });

  it("cancels the donor's booking on a day the deferral covers, frees it for staff and tells the donor; a booking on its end date stays", async () => {
    const statusOf = (id: number) =>
      t.db.selectFrom('donations').select(['status', 'decided_by']).where('id', '=', id).executeTakeFirstOrThrow();
    const notificationsOf = (donor: TestUser) => get<NotificationList>('/api/notifications', donor);

    // Booked for the day before the deferral ends: covered, so cancelled.
    const covered = await createDonor(t);
    const coveredBooking = await book(t, covered, addDays(TODAY, 9));
    const deferred = await post(`/api/admin/donors/${covered.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 10), reason: 'Cold' });
    expect(deferred.statusCode, deferred.body).toBe(201);
    // Staff hear of the booking it cancelled, as the donor does.
    expect(deferred.json()).toMatchObject({ type: 'temporary', cancelled_booking: { id: coveredBooking, date: addDays(TODAY, 9) } });
    expect(await statusOf(coveredBooking)).toEqual({ status: 'cancelled', decided_by: admin.id });
    expect(await summaryOf(covered)).toMatchObject({ pending: 0, latest_donation: { id: coveredBooking, status: 'cancelled' } });
    expect((await activitiesOf(t, covered.id)).map((activity) => activity.message)).toContain(
      `Your booking for ${Number(addDays(TODAY, 9).slice(8))} Mar was cancelled: you cannot donate on that day.`,
    );
    expect((await notificationsOf(covered)).items[0]).toMatchObject({
      title: 'You are deferred from donating',
      body: `You are deferred from donating until ${formatFeedDateWithYear(addDays(TODAY, 10))}. You can book a donation for that day or later. Your booking for ${Number(addDays(TODAY, 9).slice(8))} Mar has been cancelled.`,
    });
    const dueList = await get<{ items: AdminDonation[] }>('/api/admin/donations?status=pending', admin);
    expect(dueList.items.some((item) => item.id === coveredBooking)).toBe(false);
    expect((await auditEntries(t, 'donation.cancelled')).some((entry) => entry.entity_id === coveredBooking)).toBe(true);

    // Booked for the deferral's end date, the first day allowed: kept.
    const kept = await createDonor(t);
    const keptBooking = await book(t, kept, addDays(TODAY, 10));
    const keptDeferral = await post(`/api/admin/donors/${kept.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 10), reason: 'Cold' });
    expect(keptDeferral.json().cancelled_booking).toBeNull();
    expect((await statusOf(keptBooking)).status).toBe('pending');
    // Told that the booking stands, not invited to book another (one booking at a time: a 409).
    const standing = `You are deferred from donating until ${formatFeedDateWithYear(addDays(TODAY, 10))}. Your booking for ${Number(addDays(TODAY, 10).slice(8))} Mar stands.`;
    expect((await notificationsOf(kept)).items[0]!.body).toBe(standing);
    expect((await summaryOf(kept)).activities[0]?.message).toBe(standing);

    // Permanent: whatever the date.
    const permanent = await createDonor(t);
    const farBooking = await book(t, permanent, addDays(TODAY, 80));
    await post(`/api/admin/donors/${permanent.id}/deferrals`, admin, { type: 'permanent', reason: 'Medical history' });
    expect((await statusOf(farBooking)).status).toBe('cancelled');
  });

  it('lifting one of two deferrals in force tells the donor they are still deferred, with no "book again" message', async () => {
    const donor = await createDonor(t);
    const short = await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 10), reason: 'Cold' });
    const long = await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 40), reason: 'Travel' });
    expect((await post(`/api/admin/deferrals/${long.json().id}/lift`, admin, { reason: 'Trip cancelled' })).statusCode).toBe(200);

    expect((await activitiesOf(t, donor.id)).at(-1)?.message).toBe(
      `One of your deferrals was lifted. You are deferred from donating until ${formatFeedDateWithYear(addDays(TODAY, 10))}. You can book a donation for that day or later.`,
    );
    const titles = (await get<NotificationList>('/api/notifications', donor)).items.map((item) => item.title);
    expect(titles).not.toContain('You can book a donation again');
    expect((await summaryOf(donor)).deferred).toEqual({ type: 'temporary', until: addDays(TODAY, 10) });

    // The last one lifted: now they may book, and are told so.
    await post(`/api/admin/deferrals/${short.json().id}/lift`, admin, { reason: 'Recovered' });
    expect((await get<NotificationList>('/api/notifications', donor)).items[0]!.title).toBe('You can book a donation again');
  });

  it('a donor still deferred who holds a booking after the deferral is told the booking stands, not invited to book', async () => {
    const donor = await createDonor(t);
    const booking = await book(t, donor, addDays(TODAY, 20));
    await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 10), reason: 'Cold' });
    const long = await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 15), reason: 'Travel' });
    expect(long.json().cancelled_booking).toBeNull();
    expect((await post(`/api/admin/deferrals/${long.json().id}/lift`, admin, { reason: 'Trip cancelled' })).statusCode).toBe(200);

    expect((await activitiesOf(t, donor.id)).at(-1)?.message).toBe(
      `One of your deferrals was lifted. You are deferred from donating until ${formatFeedDateWithYear(addDays(TODAY, 10))}. Your booking for ${Number(addDays(TODAY, 20).slice(8))} Mar stands.`,
    );
    expect(await t.db.selectFrom('donations').select('status').where('id', '=', booking).executeTakeFirstOrThrow()).toEqual({ status: 'pending' });
  });

  it('refuses a past end date, a missing reason, an unknown donor and an unknown deferral', async () => {
    const donor = await createDonor(t);
    const past = await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: TODAY, reason: 'x' });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors).toEqual({ until: 'End date must be after today' });
    const noReason = await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'permanent', reason: '  ' });
    expect(noReason.json().errors).toEqual({ reason: 'Reason is required' });
    expect((await post('/api/admin/donors/999999/deferrals', admin, { type: 'permanent', reason: 'x' })).statusCode).toBe(404);
    expect((await post('/api/admin/deferrals/999999/lift', admin, { reason: 'x' })).statusCode).toBe(404);
  });

  it('next_eligible_date is the later of the interval date and the deferral end', async () => {
    const donor = await createDonor(t);
    await insertDonationRow(t, donor.id, { date: addDays(TODAY, -30) }); // interval ends at +60
    expect((await summaryOf(donor)).next_eligible_date).toBe(addDays(TODAY, 60));

    const short = await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 10), reason: 'Cold' });
    expect((await summaryOf(donor)).next_eligible_date).toBe(addDays(TODAY, 60));
    const long = await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 75), reason: 'Travel' });
    expect(await summaryOf(donor)).toMatchObject({
      next_eligible_date: addDays(TODAY, 75),
      deferred: { type: 'temporary', until: addDays(TODAY, 75) },
    });
    expect(short.statusCode + long.statusCode).toBe(402);
  });
});

describe('Manage Donations lists what awaits staff first', () => {
  it('bookings by date (due ones first), then donations awaiting results, then the rest; counted on the dashboard', async () => {
    const local = await createTestApp({ now: `${TODAY}T09:00:00Z` });
    try {
      const localAdmin = await staffOf(local);
      const [a, b, c, d] = [await createDonor(local), await createDonor(local), await createDonor(local), await createDonor(local)];
      const later = await book(local, a, addDays(TODAY, 5));
      const due = await book(local, b, TODAY);
      const tested = await book(local, c, TODAY);
      await collect(local, tested);
      const released = await book(local, d, TODAY);
      await collect(local, released);
      await recordResults(local, released, { ...NEGATIVE_RESULTS, bloodgroup: 'O+' });

      const list = (query: string) =>
        local.app
          .inject({ method: 'GET', url: `/api/admin/donations?${query}`, headers: localAdmin.headers })
          .then((response) => response.json<{ items: AdminDonation[]; total: number }>());
      expect((await list('page=1')).items.map((item) => item.id)).toEqual([due, later, tested, released]);
      expect((await list('page=2&pageSize=1')).items.map((item) => item.id)).toEqual([later]);
      expect((await list('page=3&pageSize=1')).items.map((item) => item.id)).toEqual([tested]);
      expect((await list('due=true')).items.map((item) => item.id)).toEqual([due]);
      expect(await list('status=pending&due=false')).toMatchObject({ items: [{ id: later }], total: 1 });
      expect((await list('status=collected')).items.map((item) => item.id)).toEqual([tested]);
      const releasedItem = (await list('status=released')).items[0]!;
      expect(releasedItem.test_results).toMatchObject({ hiv: 'negative', bloodgroup: 'O+', recorded_by: localAdmin.username });

      const dashboard = await local.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: localAdmin.headers });
      expect(dashboard.json()).toMatchObject({ pendingDonations: 2, bookingsDue: 1, awaitingResults: 1 });
      const oPositive = dashboard.json().inventory.find((row: { bloodgroup: string }) => row.bloodgroup === 'O+');
      expect(oPositive).toMatchObject({ units: 1, in_testing: 1 });
    } finally {
      await local.close();
    }
  });
});
