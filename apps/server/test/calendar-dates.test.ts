import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@bloodbank/shared/dates';
import { donationForm, PASSING_SCREENING, setToday } from './donation-helpers';
import { createAdmin, createDonor, createPatient, type TestUser } from './factories';
import { createTestApp, type TestApp } from './test-app';

/**
 * Absurd dates (PRODUCT.md 3.9, issue 18): every calendar date is a real date between 1900-01-01 and
 * 2100-12-31; a donation is booked at most 90 days ahead, a request's required date lies at most a
 * year ahead, a manual receipt is not collected in the future; and no donation is approved into
 * stock before the day it is booked for.
 */
const TODAY = '2026-11-25';
const RANGE = 'Please enter a date between 1900-01-01 and 2100-12-31';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: `${TODAY}T09:00:00Z` });
  admin = await createAdmin(t);
});
afterAll(() => t.close());

const book = (donor: TestUser, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/donations', headers: donor.headers, payload: body });
const requestBlood = (patient: TestUser, date: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/requests',
    headers: patient.headers,
    payload: { bloodgroup: 'A+', unit: 1, date, doctorname: 'Dr. Rao', hospitaladdress: 'City Hospital', reason: 'Surgery' },
  });
const receive = (collectedOn: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/units',
    headers: admin.headers,
    payload: { bloodgroup: 'O+', count: 1, collected_on: collectedOn },
  });

describe('donation dates', () => {
  it.each(['9999-12-31', '2101-01-01', '1899-12-31', '0001-01-01'])('refuses a booking for %s (422)', async (date) => {
    const response = await book(await createDonor(t), donationForm(date));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.date).toBe(RANGE);
  });

  it('books at most 90 days ahead', async () => {
    const tooFar = await book(await createDonor(t), donationForm(addDays(TODAY, 91)));
    expect(tooFar.statusCode).toBe(422);
    expect(tooFar.json().errors.date).toBe('Please choose a date within the next 90 days');
    expect((await book(await createDonor(t), donationForm(addDays(TODAY, 90)))).statusCode).toBe(201);
  });

  it('refuses a last donation date outside the calendar range', async () => {
    const response = await book(await createDonor(t), donationForm(TODAY, { lastDonation: '1899-12-31' }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.lastDonation).toBe(RANGE);
  });
});

describe('request dates', () => {
  it('needs the required date within the next year', async () => {
    const patient = await createPatient(t);
    const tooFar = await requestBlood(patient, addDays(TODAY, 366));
    expect(tooFar.statusCode).toBe(422);
    expect(tooFar.json().errors.date).toBe('Required date must be within the next year');
    expect((await requestBlood(patient, '9999-12-31')).json().errors.date).toBe(RANGE);
    expect((await requestBlood(patient, addDays(TODAY, 365))).statusCode).toBe(201);
  });
});

describe('received units', () => {
  it('refuses a collection date in the future or outside the calendar range, and keeps expiry a plain date', async () => {
    expect((await receive(addDays(TODAY, 1))).json().errors.collected_on).toBe('Collection date cannot be in the future');
    expect((await receive('1899-12-31')).json().errors.collected_on).toBe(RANGE);
    const received = await receive(TODAY);
    expect(received.statusCode).toBe(201);
    expect(received.json().units[0]).toMatchObject({ collected_on: TODAY, expires_on: addDays(TODAY, 42) });
  });
});

describe('collecting a donation booked for a later day', () => {
  it('is refused (409) until that day, and then quarantines units collected on it', async () => {
    const donor = await createDonor(t);
    const date = addDays(TODAY, 10);
    const booked = await book(donor, donationForm(date));
    expect(booked.statusCode).toBe(201);
    const approve = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/donations/${booked.json().id}/collect`,
        headers: admin.headers,
        payload: PASSING_SCREENING,
      });

    const early = await approve();
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toBe(`This donation is booked for ${date} and can be collected from that day.`);
    expect(await t.db.selectFrom('blood_units').select('id').where('donation_id', '=', booked.json().id).execute()).toEqual([]);

    setToday(t, date);
    try {
      const onTheDay = await approve();
      expect(onTheDay.statusCode).toBe(200);
      const units = await t.db
        .selectFrom('blood_units')
        .select(['collected_on', 'expires_on', 'status'])
        .where('donation_id', '=', booked.json().id)
        .execute();
      // Whole blood, 35 days (PRODUCT.md 3.3).
      expect(units).toEqual([{ collected_on: date, expires_on: addDays(date, 35), status: 'quarantined' }]);
    } finally {
      setToday(t, TODAY);
    }
  });
});

describe('addDays', () => {
  it('does calendar arithmetic across months, leap days and centuries', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2100-02-28', 1)).toBe('2100-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2100-12-31', 42)).toBe('2101-02-11');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
