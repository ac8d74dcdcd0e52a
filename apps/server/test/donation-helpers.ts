import { expect } from 'vitest';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { DonationStatus } from '@bloodbank/shared/donation';
import type { DonationCompleteResult } from '@bloodbank/shared/game';
import type { TestUser } from './factories';
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

/** A donation row written directly, for histories the API would take months to build. */
export async function insertDonationRow(
  t: TestApp,
  donorId: number,
  row: { date: string; status?: DonationStatus; units?: number; bloodgroup?: BloodGroup },
): Promise<number> {
  const at = `${row.date}T08:00:00.000Z`;
  const status = row.status ?? 'approved';
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
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** What an admin's approval does to the donation row (the admin module adds units and the audit). */
export async function approveDirectly(t: TestApp, donationId: number): Promise<void> {
  await t.db
    .updateTable('donations')
    .set({ status: 'approved', decided_at: t.clock.now().toISOString() })
    .where('id', '=', donationId)
    .execute();
}

/**
 * The donor's whole flow on `date`: the clock moves to that day, the donor submits the form, claims
 * the reward, and an admin approves it, so the next donation 90+ days later is eligible.
 */
export async function donateRewardAndApprove(
  t: TestApp,
  donor: TestUser,
  date: string,
): Promise<DonationCompleteResult> {
  setToday(t, date);
  const submitted = await t.app.inject({
    method: 'POST',
    url: '/api/donations',
    headers: donor.headers,
    payload: donationForm(date),
  });
  expect(submitted.statusCode, submitted.body).toBe(201);
  const reward = await t.app.inject({
    method: 'POST',
    url: '/api/game/donation-complete',
    headers: donor.headers,
  });
  expect(reward.statusCode, reward.body).toBe(200);
  await approveDirectly(t, submitted.json<{ id: number }>().id);
  return reward.json<DonationCompleteResult>();
}
