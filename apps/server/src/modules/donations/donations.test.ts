import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Donation, DonorSummary } from '@bloodbank/shared/donation';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient, type TestUser } from '../../../test/factories';
import { collect, donationForm, insertDonationRow, setToday } from '../../../test/donation-helpers';
import { recordActivity } from '../activity/activity.repository';
import { donationActivityMessages, formatFeedDate } from './donation-activity';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-03-10T09:00:00Z' });
});
afterAll(() => t.close());
beforeEach(() => setToday(t, '2026-03-10'));

const submit = (user: TestUser | undefined, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/donations',
    payload: payload as object,
    ...(user ? { headers: user.headers } : {}),
  });
const summaryOf = async (donor: TestUser) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/donor/summary', headers: donor.headers });
  expect(response.statusCode).toBe(200);
  return response.json<DonorSummary>();
};

describe('who may use the donor endpoints', () => {
  const endpoints = [
    { method: 'POST' as const, url: '/api/donations', payload: donationForm('2026-03-20') },
    { method: 'GET' as const, url: '/api/donations/mine' },
    { method: 'GET' as const, url: '/api/donor/summary' },
  ];

  it.each(endpoints)('$method $url answers 401 without a token', async (endpoint) => {
    const response = await t.app.inject(endpoint);
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe('Not authenticated');
  });

  it.each(endpoints)('$method $url answers 403 to patients and admins', async (endpoint) => {
    for (const user of [await createPatient(t), await createAdmin(t)]) {
      const response = await t.app.inject({ ...endpoint, headers: user.headers });
      expect(response.statusCode).toBe(403);
    }
    expect(await t.db.selectFrom('donations').select('id').execute()).toEqual([]);
  });
});

describe('POST /api/donations', () => {
  it('stores a pending donation with the blood group of the account, whatever the body says', async () => {
    const donor = await createDonor(t, { bloodgroup: 'B-' });
    const response = await submit(
      donor,
      donationForm('2026-03-20', {
        unit: 2,
        bloodgroup: 'AB+',
        disease: 'Diabetes',
        lastDonation: '2025-11-01',
        status: 'approved',
      }),
    );
    expect(response.statusCode).toBe(201);
    const donation = response.json<Donation>();
    expect(donation).toEqual({
      id: expect.any(Number),
      bloodgroup: 'B-',
      unit: 2,
      date: '2026-03-20',
      disease: 'Diabetes',
      lastDonation: '2025-11-01',
      status: 'pending',
      rejection_reason: null,
      collected_on: null,
      created_at: '2026-03-10T09:00:00.000Z',
      decided_at: null,
      appointment: null,
    });
    const row = await t.db
      .selectFrom('donations')
      .selectAll()
      .where('id', '=', donation.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ donor_id: donor.id, bloodgroup: 'B-', units: 2, status: 'pending' });
  });

  it('accepts numeric strings from a form, today as the date and no last donation', async () => {
    const donor = await createDonor(t);
    const response = await submit(donor, {
      unit: '1',
      date: '2026-03-10',
      disease: 'None',
      confirmation: true,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ unit: 1, date: '2026-03-10', lastDonation: null });
  });

  it('books one unit when the body leaves the number of units out (PRODUCT.md 3.2: default 1)', async () => {
    const donor = await createDonor(t);
    const response = await submit(donor, { date: '2026-03-20', disease: 'None', confirmation: true });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ unit: 1, status: 'pending' });
    const row = await t.db
      .selectFrom('donations')
      .select('units')
      .where('donor_id', '=', donor.id)
      .executeTakeFirstOrThrow();
    expect(row.units).toBe(1);
  });

  it.each([
    ['unit', { unit: '' }, 'Number of units is required'],
    ['unit', { unit: 0 }, 'Minimum 1 unit is required'],
    ['unit', { unit: 3 }, 'Maximum 2 units can be donated at once'],
    ['date', { date: '' }, 'Donation date is required'],
    ['date', { date: '2026-03-09' }, 'Date cannot be in the past'],
    ['date', { date: '2026-02-30' }, 'Please enter a valid date (YYYY-MM-DD)'],
    ['disease', { disease: '' }, 'This field is required'],
    ['disease', { disease: 'Flu' }, 'Please choose one of the options'],
    ['lastDonation', { lastDonation: '2026-03-11' }, 'Last donation date cannot be in the future'],
    ['confirmation', { confirmation: false }, 'You must confirm this statement'],
    ['confirmation', { confirmation: undefined }, 'You must confirm this statement'],
  ])('refuses a bad %s with 422 and the form message (%j)', async (field, override, message) => {
    const donor = await createDonor(t);
    const response = await submit(donor, donationForm('2026-03-20', override));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ detail: message, errors: { [field]: message } });
    expect(
      await t.db.selectFrom('donations').select('id').where('donor_id', '=', donor.id).execute(),
    ).toEqual([]);
  });

  it('judges "in the past" by the blood bank\'s calendar, which moves with the clock', async () => {
    const donor = await createDonor(t);
    setToday(t, '2026-04-02');
    const yesterday = await submit(donor, donationForm('2026-04-01'));
    expect(yesterday.json().errors).toEqual({ date: 'Date cannot be in the past' });
    // Just before midnight it is still the 2nd.
    setToday(t, '2026-04-02', '23:59:59');
    expect((await submit(donor, donationForm('2026-04-02'))).statusCode).toBe(201);
  });

  it('allows one donation awaiting approval at a time, and another once it is decided', async () => {
    const donor = await createDonor(t);
    const first = await submit(donor, donationForm('2026-03-20'));
    expect(first.statusCode).toBe(201);

    const second = await submit(donor, donationForm('2026-03-25'));
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      detail: 'You already have a donation awaiting approval.',
      code: 'donation_pending',
    });

    // A rejection frees the donor at once: only approved donations start the 90-day wait.
    await t.db
      .updateTable('donations')
      .set({ status: 'rejected' })
      .where('id', '=', first.json().id)
      .execute();
    expect((await submit(donor, donationForm('2026-03-25'))).statusCode).toBe(201);
  });

  it('lets exactly one of two simultaneous submits through', async () => {
    const donor = await createDonor(t);
    const responses = await Promise.all([
      submit(donor, donationForm('2026-03-20')),
      submit(donor, donationForm('2026-03-21')),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const refused = responses.find((response) => response.statusCode === 409);
    expect(refused?.json().detail).toBe('You already have a donation awaiting approval.');
    const rows = await t.db
      .selectFrom('donations')
      .select('status')
      .where('donor_id', '=', donor.id)
      .execute();
    expect(rows).toEqual([{ status: 'pending' }]);
  });

  // Choice: a date too soon after the last approved donation is a 422 on the `date` field (the donor
  // fixes it by choosing a later date in the same form), not a 409.
  it('refuses a date under 90 days after the last approved donation with 422 on the date field', async () => {
    const donor = await createDonor(t);
    await insertDonationRow(t, donor.id, { date: '2025-12-01', status: 'released' });
    await insertDonationRow(t, donor.id, { date: '2026-03-01', status: 'released' });
    // A rejected donation, even a later one, does not count.
    await insertDonationRow(t, donor.id, { date: '2026-03-09', status: 'rejected' });

    const tooSoon = await submit(donor, donationForm('2026-05-29'));
    expect(tooSoon.statusCode).toBe(422);
    expect(tooSoon.json()).toMatchObject({
      detail: 'You can donate again from 2026-05-30.',
      code: 'not_eligible_yet',
      errors: { date: 'You can donate again from 2026-05-30.' },
    });

    const onDay90 = await submit(donor, donationForm('2026-05-30'));
    expect(onDay90.statusCode).toBe(201);
  });

  it('counts the 90 days from the day the blood was collected', async () => {
    const donor = await createDonor(t);
    setToday(t, '2026-03-10');
    const submitted = await submit(donor, donationForm('2026-03-18'));
    // The donor came two days late: the interval counts from the collection.
    setToday(t, '2026-03-20');
    expect((await collect(t, submitted.json().id)).statusCode).toBe(200);
    setToday(t, '2026-03-25');
    // 2026-03-20 + 90 days = 2026-06-18
    const response = await submit(donor, donationForm('2026-06-17'));
    expect(response.json().errors).toEqual({ date: 'You can donate again from 2026-06-18.' });
    expect((await submit(donor, donationForm('2026-06-18'))).statusCode).toBe(201);
  });
});

describe('GET /api/donations/mine', () => {
  it("lists only the donor's own donations, newest first, with statuses and rejection reasons", async () => {
    const donor = await createDonor(t);
    const other = await createDonor(t);
    await insertDonationRow(t, other.id, { date: '2026-01-01' });
    const older = await insertDonationRow(t, donor.id, { date: '2025-10-01', status: 'released' });
    const rejected = await insertDonationRow(t, donor.id, { date: '2026-01-05', status: 'rejected' });
    await t.db
      .updateTable('donations')
      .set({ rejection_reason: 'Low haemoglobin' })
      .where('id', '=', rejected)
      .execute();
    const newest = await submit(donor, donationForm('2026-03-20'));

    const response = await t.app.inject({
      method: 'GET',
      url: '/api/donations/mine',
      headers: donor.headers,
    });
    expect(response.statusCode).toBe(200);
    const list = response.json<Donation[]>();
    expect(list.map((donation) => [donation.id, donation.status, donation.rejection_reason])).toEqual([
      [newest.json().id, 'pending', null],
      [rejected, 'rejected', 'Low haemoglobin'],
      [older, 'released', null],
    ]);
  });

  it('is an empty list for a new donor', async () => {
    const donor = await createDonor(t);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/donations/mine',
      headers: donor.headers,
    });
    expect(response.json()).toEqual([]);
  });
});

describe('GET /api/donor/summary', () => {
  it('starts at zero, eligible today, with no activities', async () => {
    const donor = await createDonor(t);
    expect(await summaryOf(donor)).toEqual({
      made: 0,
      pending: 0,
      approved: 0,
      rejected: 0,
      next_eligible_date: '2026-03-10',
      not_eligible_reason: null,
      deferred: null,
      latest_donation: null,
      activities: [],
    });
  });

  it("counts the donor's donations by status and follows the eligibility rules as the days pass", async () => {
    const donor = await createDonor(t);
    const other = await createDonor(t);
    await insertDonationRow(t, other.id, { date: '2026-03-01', status: 'released' });
    await insertDonationRow(t, donor.id, { date: '2025-09-01', status: 'released' });
    await insertDonationRow(t, donor.id, { date: '2025-12-15', status: 'rejected' });
    await insertDonationRow(t, donor.id, { date: '2026-01-10', status: 'rejected' });
    const pending = await submit(donor, donationForm('2026-03-20'));

    expect(await summaryOf(donor)).toMatchObject({
      made: 4,
      pending: 1,
      approved: 1,
      rejected: 2,
      next_eligible_date: null,
      not_eligible_reason: 'You already have a donation awaiting approval.',
    });

    setToday(t, '2026-03-20');
    expect((await collect(t, pending.json().id)).statusCode).toBe(200);
    expect(await summaryOf(donor)).toMatchObject({
      made: 4,
      pending: 0,
      approved: 2,
      rejected: 2,
      next_eligible_date: '2026-06-18',
      not_eligible_reason: 'You can donate again from 2026-06-18.',
    });

    setToday(t, '2026-06-18');
    expect(await summaryOf(donor)).toMatchObject({
      next_eligible_date: '2026-06-18',
      not_eligible_reason: null,
    });
    setToday(t, '2026-07-01');
    expect(await summaryOf(donor)).toMatchObject({
      next_eligible_date: '2026-07-01',
      not_eligible_reason: null,
    });
  });

  it("shows the donor's last 10 activities, newest first, including their donation submit", async () => {
    const donor = await createDonor(t);
    const other = await createDonor(t);
    for (let index = 1; index <= 11; index += 1) {
      await recordActivity(t.db, {
        userId: donor.id,
        kind: 'test',
        message: `Event ${index}`,
        at: '2026-03-01T00:00:00.000Z',
      });
    }
    await recordActivity(t.db, {
      userId: other.id,
      kind: 'test',
      message: 'Someone else',
      at: '2026-03-01T00:00:00.000Z',
    });
    await submit(donor, donationForm('2026-03-20', { unit: 2 }));

    const { activities } = await summaryOf(donor);
    expect(activities).toHaveLength(10);
    expect(activities[0]).toEqual({
      id: expect.any(Number),
      kind: 'donation_submitted',
      message: 'You booked a donation of 2 units for 20 Mar.',
      created_at: '2026-03-10T09:00:00.000Z',
    });
    expect(activities.slice(1).map((activity) => activity.message)).toEqual(
      [11, 10, 9, 8, 7, 6, 5, 4, 3].map((index) => `Event ${index}`),
    );
  });
});

describe('feed messages for the admin decisions', () => {
  it('word approvals and rejections with the donation day', () => {
    expect(formatFeedDate('2026-03-12')).toBe('12 Mar');
    expect(donationActivityMessages.submitted({ date: '2026-01-05', units: 1 })).toBe(
      'You booked a donation of 1 unit for 5 Jan.',
    );
    expect(donationActivityMessages.collected({ date: '2026-12-01', units: 1 }, 100)).toBe(
      'Your donation of 1 Dec was collected: +100 points. It is now being tested.',
    );
    expect(donationActivityMessages.released({ date: '2026-12-01', units: 1 })).toBe(
      'Your donation of 1 Dec passed its tests and is ready to save lives. Thank you!',
    );
    expect(donationActivityMessages.rejected({ date: '2026-03-12', units: 1 }, 'Low haemoglobin')).toBe(
      'Your donation of 12 Mar was not approved: Low haemoglobin.',
    );
    expect(donationActivityMessages.rejected({ date: '2026-03-12', units: 1 }, null)).toBe(
      'Your donation of 12 Mar was not approved.',
    );
  });
});
