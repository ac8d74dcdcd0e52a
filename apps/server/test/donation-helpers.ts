import { expect } from 'vitest';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { COLLECTED_DONATION_STATUSES, type DonationStatus } from '@bloodbank/shared/donation';
import type { DonationCompleteResult } from '@bloodbank/shared/game';
import { createAdmin, type TestUser } from './factories';
import type { TestApp } from './test-app';

/** A Donate Blood form a donor would send. */
export const donationForm = (date: string, overrides: Record<string, unknown> = {}) => ({
  unit: 1,
  date,
  disease: 'None',
  lastDonation: '',
  confirmation: true,
  ...overrides,
});

/** Moves the bank's clock to that calendar day (mid-morning UTC, the default time zone). */
export const setToday = (t: TestApp, date: string, time = '09:00:00') => t.clock.set(`${date}T${time}Z`);

/** A donation row written directly, for histories the API would take months to build (default: released). */
export async function insertDonationRow(
  t: TestApp,
  donorId: number,
  row: { date: string; status?: DonationStatus; units?: number; bloodgroup?: BloodGroup },
): Promise<number> {
  const at = `${row.date}T08:00:00.000Z`;
  const status = row.status ?? 'released';
  const inserted = await t.db
    .insertInto('donations')
    .values({
      donor_id: donorId,
      bloodgroup: row.bloodgroup ?? 'O+',
      units: row.units ?? 1,
      donation_date: row.date,
      disease: 'None',
      last_donation: null,
      status,
      rejection_reason: null,
      decided_by: null,
      decided_at: status === 'pending' ? null : at,
      created_at: at,
      collected_on: (COLLECTED_DONATION_STATUSES as readonly string[]).includes(status) || status === 'deferred' ? row.date : null,
      outcome_reason: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Screening values that pass every default threshold. */
export const PASSING_SCREENING = { haemoglobin_g_dl: 13.5, weight_kg: 70, bp_systolic: 120, bp_diastolic: 80, pulse: 70 };
export const NEGATIVE_RESULTS = { hiv: 'negative', hbv: 'negative', hcv: 'negative', syphilis: 'negative' } as const;

/** One admin per test app, made on first use, for the helpers that play staff's steps. */
const staff = new WeakMap<TestApp, Promise<TestUser>>();
export function staffOf(t: TestApp): Promise<TestUser> {
  let admin = staff.get(t);
  if (!admin) {
    admin = createAdmin(t);
    staff.set(t, admin);
  }
  return admin;
}

/** Staff record the collection (passing screening unless told otherwise); answers the response. */
export async function collect(t: TestApp, donationId: number, screening: Record<string, unknown> = PASSING_SCREENING) {
  const admin = await staffOf(t);
  return t.app.inject({ method: 'POST', url: `/api/admin/donations/${donationId}/collect`, headers: admin.headers, payload: screening });
}

/** Staff record test results (all negative, the donation's own group, unless told otherwise). */
export async function recordResults(t: TestApp, donationId: number, results: Record<string, unknown>) {
  const admin = await staffOf(t);
  return t.app.inject({ method: 'POST', url: `/api/admin/donations/${donationId}/results`, headers: admin.headers, payload: results });
}

/** A donor books a donation for `date` (the clock is not moved); answers the booking's id. */
export async function book(t: TestApp, donor: TestUser, date: string, overrides: Record<string, unknown> = {}): Promise<number> {
  const booked = await t.app.inject({ method: 'POST', url: '/api/donations', headers: donor.headers, payload: donationForm(date, overrides) });
  expect(booked.statusCode, booked.body).toBe(201);
  return booked.json<{ id: number }>().id;
}

/**
 * The donor's whole visit on `date`: the clock moves to that day, the donor books, staff collect the
 * blood (Blood Hero credits it), and the donor's app collects the reward, so the next donation
 * 90+ days later is eligible. Answers what donation-complete returned.
 */
export async function donateAndCollect(t: TestApp, donor: TestUser, date: string): Promise<DonationCompleteResult> {
  setToday(t, date);
  const donationId = await book(t, donor, date);
  const collected = await collect(t, donationId);
  expect(collected.statusCode, collected.body).toBe(200);
  expect(collected.json().status).toBe('collected');
  const reward = await t.app.inject({ method: 'POST', url: '/api/game/donation-complete', headers: donor.headers });
  expect(reward.statusCode, reward.body).toBe(200);
  return reward.json<DonationCompleteResult>();
}
