import { expect, type APIRequestContext } from '@playwright/test';
import { BLOOD_GROUPS, type BloodGroup } from '@bloodbank/shared/blood-groups';
import { todayIn } from '@bloodbank/shared/dates';
import { E2E_ADMIN, e2eTimezone } from './constants';

/** The e2e server's "today": the calendar day in its TIMEZONE (e2eTimezone). */
export const serverToday = () => todayIn(e2eTimezone());

export async function tokenFor(request: APIRequestContext, credentials: { username: string; password: string }) {
  const response = await request.post('/api/auth/token', { form: credentials });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

export const adminToken = (request: APIRequestContext) => tokenFor(request, E2E_ADMIN);

export async function stockByGroup(request: APIRequestContext, token: string): Promise<Record<BloodGroup, number>> {
  const response = await request.get('/api/stock', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  const entries = (await response.json()) as { bloodgroup: BloodGroup; units: number }[];
  return Object.fromEntries(entries.map((entry) => [entry.bloodgroup, entry.units])) as Record<BloodGroup, number>;
}

/** POST /api/admin/units: the admin receives `count` units of a group collected today. */
export async function receiveUnits(request: APIRequestContext, token: string, bloodgroup: BloodGroup, count: number) {
  for (let left = count; left > 0; left -= 100) {
    const response = await request.post('/api/admin/units', {
      headers: { authorization: `Bearer ${token}` },
      data: { bloodgroup, count: Math.min(left, 100), collected_on: serverToday() },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
}

/**
 * Empties the shelf (other specs share this database) the way an admin would, by discarding every
 * usable unit with a reason. Returns what was there, so `restoreStock` can put the counts back.
 */
export async function emptyStock(request: APIRequestContext, token: string): Promise<Record<BloodGroup, number>> {
  const before = await stockByGroup(request, token);
  for (const bloodgroup of BLOOD_GROUPS) {
    for (let left = before[bloodgroup]; left > 0; left -= 500) {
      const response = await request.post('/api/admin/units/discard', {
        headers: { authorization: `Bearer ${token}` },
        data: { bloodgroup, count: Math.min(left, 500), reason: 'e2e: an empty shelf for the patient stock test' },
      });
      expect(response.status(), await response.text()).toBe(200);
    }
  }
  return before;
}

export async function restoreStock(request: APIRequestContext, token: string, counts: Record<BloodGroup, number>) {
  for (const bloodgroup of BLOOD_GROUPS) {
    if (counts[bloodgroup] > 0) await receiveUnits(request, token, bloodgroup, counts[bloodgroup]);
  }
}
