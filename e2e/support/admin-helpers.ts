import { expect, type APIRequestContext } from '@playwright/test';
import { addDays } from '@bloodbank/shared/dates';
import { E2E_ADMIN } from './constants';
import { serverToday } from './patient-helpers';

/** API set-up for the admin browser tests: people, donations, requests and stock made through the real API. */

export type BloodGroup = 'A+' | 'A-' | 'B+' | 'B-' | 'AB+' | 'AB-' | 'O+' | 'O-';

/**
 * A calendar date `days` from the server's today, as YYYY-MM-DD. The browsers share the server's
 * zone (playwright.config.ts), so it is the forms' "today" too.
 */
export function dayFromToday(days: number): string {
  return addDays(serverToday(), days);
}

export async function tokenFor(
  request: APIRequestContext,
  credentials: { username: string; password: string },
): Promise<string> {
  const response = await request.post('/api/auth/token', { form: credentials });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

export const adminToken = (request: APIRequestContext) => tokenFor(request, E2E_ADMIN);

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface Person {
  username: string;
  password: string;
  firstName: string;
  name: string;
}

/** Registers a donor or patient of the given blood group. */
export async function registerPerson(
  request: APIRequestContext,
  userType: 'donor' | 'patient',
  username: string,
  bloodgroup: BloodGroup,
  firstName: string,
): Promise<Person> {
  const person = { username, password: 'secret-pass', firstName, name: `${firstName} Tester` };
  const response = await request.post('/api/auth/register', {
    data: {
      user_type: userType,
      username,
      password: person.password,
      first_name: firstName,
      last_name: 'Tester',
      email: `${username}@example.com`,
      bloodgroup,
      address: '1 Test Street',
      mobile: '9876543210',
      ...(userType === 'patient' ? { disease: 'Surgery', age: 40, doctorname: 'Dr. Rao' } : {}),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return person;
}

/** POST /api/donations as the donor: a pending donation of `unit` units. */
export async function donate(
  request: APIRequestContext,
  donor: Person,
  unit: 1 | 2 = 1,
  disease = 'None',
): Promise<number> {
  const response = await request.post('/api/donations', {
    headers: bearer(await tokenFor(request, donor)),
    // Booked for today: staff may record a collection only from the day it is booked for.
    data: { unit, date: dayFromToday(0), disease, confirmation: true },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** POST /api/requests as the patient: a pending request. */
export async function requestBlood(
  request: APIRequestContext,
  patient: Person,
  bloodgroup: BloodGroup,
  unit: number,
): Promise<number> {
  const response = await request.post('/api/requests', {
    headers: bearer(await tokenFor(request, patient)),
    data: {
      bloodgroup,
      unit,
      date: dayFromToday(2),
      doctorname: 'Dr. Rao',
      hospitaladdress: 'City Hospital, Ward 4',
      reason: 'Planned surgery',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** POST /api/admin/units: units received by hand, collected yesterday. */
export async function receiveUnits(
  request: APIRequestContext,
  token: string,
  bloodgroup: BloodGroup,
  count: number,
): Promise<void> {
  const response = await request.post('/api/admin/units', {
    headers: bearer(token),
    data: { bloodgroup, count, collected_on: dayFromToday(-1) },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** The stock of a group as the dashboard reports it. */
export async function stockOf(
  request: APIRequestContext,
  token: string,
  bloodgroup: BloodGroup,
): Promise<number> {
  const response = await request.get('/api/admin/dashboard', { headers: bearer(token) });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { inventory: { bloodgroup: string; units: number }[] };
  return body.inventory.find((row) => row.bloodgroup === bloodgroup)?.units ?? 0;
}

/** Takes a group's whole stock off the shelf, so a request for it is short. */
export async function emptyGroup(
  request: APIRequestContext,
  token: string,
  bloodgroup: BloodGroup,
): Promise<void> {
  const units = await stockOf(request, token, bloodgroup);
  if (units === 0) return;
  const response = await request.post('/api/admin/units/discard', {
    headers: bearer(token),
    data: { bloodgroup, count: units, reason: 'Emptied by a browser test' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** GET /api/donations/mine as the donor. */
export async function donationsOf(request: APIRequestContext, donor: Person) {
  const response = await request.get('/api/donations/mine', {
    headers: bearer(await tokenFor(request, donor)),
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: number; status: string; rejection_reason: string | null }[];
}

/**
 * Staff collect a pending donation (screening within every threshold) and record negative test
 * results with the donor's group: its units are released, whole blood collected today.
 */
export async function collectAndRelease(
  request: APIRequestContext,
  token: string,
  donationId: number,
  bloodgroup: BloodGroup,
): Promise<number[]> {
  const collected = await request.post(`/api/admin/donations/${donationId}/collect`, {
    headers: bearer(token),
    data: { haemoglobin_g_dl: 13.5, weight_kg: 70, bp_systolic: 120, bp_diastolic: 80, pulse: 70 },
  });
  expect(collected.status(), await collected.text()).toBe(200);
  const body = (await collected.json()) as { status: string; unit_ids: number[] };
  expect(body.status).toBe('collected');
  const results = await request.post(`/api/admin/donations/${donationId}/results`, {
    headers: bearer(token),
    data: { hiv: 'negative', hbv: 'negative', hcv: 'negative', syphilis: 'negative', bloodgroup },
  });
  expect(results.status(), await results.text()).toBe(200);
  expect(((await results.json()) as { status: string }).status).toBe('released');
  return body.unit_ids;
}
