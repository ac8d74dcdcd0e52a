import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@bloodbank/shared/auth';
import { addDays } from '@bloodbank/shared/dates';
import type { ApiRoute } from '../../src/plugins/access';
import { donationForm } from '../donation-helpers';
import { createAdmin, createDonor, createPatient, type TestUser } from '../factories';
import { createTestApp, type TestApp } from '../test-app';
import {
  giveProfilePicture,
  insertAvailableUnits,
  insertCollectedDonation,
  insertDeferral,
  insertHeldUnit,
  insertPendingDonation,
  insertPendingRequest,
  insertSite,
} from './fixtures';
import { NEGATIVE_RESULTS, PASSING_SCREENING } from '../donation-helpers';

/**
 * Every /api route, read from the server's own route table, called as anonymous, donor, patient and
 * admin, and for routes on someone's resource as a stranger (another user of the owner's role).
 * The table below says what each of them must get; a route without an entry fails the test, so a
 * new route cannot ship without deciding who may call it.
 */

const NOW = '2026-05-04T10:00:00.000Z';
const TODAY = '2026-05-04';

interface World {
  t: TestApp;
  donor: TestUser;
  patient: TestUser;
  admin: TestUser;
  /** Another donor and another patient: strangers to the resources of `donor` and `patient`. */
  otherDonor: TestUser;
  otherPatient: TestUser;
}

interface Call {
  params?: Record<string, number | string>;
  payload?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

type Caller = 'anonymous' | 'donor' | 'patient' | 'admin' | 'stranger';
type Expectations = Record<Exclude<Caller, 'stranger'>, number> & { stranger?: number };

interface RouteCase {
  expect: Expectations;
  /** Whose resource the route acts on; the stranger is another user of that role. */
  owner?: 'donor' | 'patient';
  /** Builds one call with fresh resources, so each cell is independent of the others. */
  call?: (world: World, caller: TestUser | undefined) => Promise<Call> | Call;
  /** Status for the allowed caller when the id in the path names nothing (routes with :id). */
  unknownId?: number;
}

const everyone = (status: number): Expectations => ({
  anonymous: status,
  donor: status,
  patient: status,
  admin: status,
});
const signedIn = (status: number): Expectations => ({
  anonymous: 401,
  donor: status,
  patient: status,
  admin: status,
});
const only = (role: Role, status: number): Expectations => ({
  anonymous: 401,
  donor: role === 'DONOR' ? status : 403,
  patient: role === 'PATIENT' ? status : 403,
  admin: role === 'ADMIN' ? status : 403,
});

let registrationSequence = 0;
const registration = () => {
  registrationSequence += 1;
  return {
    user_type: 'donor',
    username: `matrix_reg_${registrationSequence}_${process.pid}`,
    password: 'secret-pass-1',
    first_name: 'Ravi',
    last_name: 'Kumar',
    email: `matrix${registrationSequence}@example.org`,
    bloodgroup: 'B+',
    address: '1 Park Street',
    mobile: '9876543210',
  };
};

const requestForm = {
  bloodgroup: 'A+',
  unit: 1,
  date: addDays(TODAY, 2),
  doctorname: 'Dr. Mehta',
  hospitaladdress: 'City Hospital',
  reason: 'Surgery',
};

const isRole = (user: TestUser | undefined, role: Role): user is TestUser => user?.role === role;

/** Creates the caller's own game profile, so that routes reading it answer 200 for a donor. */
async function withOwnGameProfile({ t }: World, caller: TestUser | undefined): Promise<Call> {
  if (isRole(caller, 'DONOR')) {
    await t.app.inject({ method: 'POST', url: '/api/game/profiles', headers: caller.headers });
  }
  return {};
}

export const ROUTE_EXPECTATIONS: Record<string, RouteCase> = {
  'GET /api/health': { expect: everyone(200) },
  'GET /api/stats': { expect: everyone(200) },
  'POST /api/auth/register': { expect: everyone(201), call: () => ({ payload: registration() }) },
  'POST /api/auth/token': {
    expect: everyone(200),
    call: ({ donor }) => ({
      payload: `username=${encodeURIComponent(donor.username)}&password=${encodeURIComponent(donor.password)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  },
  'GET /api/users/me': { expect: signedIn(200) },
  'GET /api/users/:id/avatar': {
    owner: 'donor',
    expect: { anonymous: 401, donor: 200, patient: 403, admin: 200, stranger: 403 },
    call: async ({ t, donor }) => {
      await giveProfilePicture(t, donor.id);
      return { params: { id: donor.id } };
    },
  },
  'GET /api/stock': { expect: signedIn(200) },
  'GET /api/public/supply': { expect: everyone(200) },
  'GET /api/public/contact': { expect: everyone(200) },

  'POST /api/donations': {
    expect: only('DONOR', 201),
    call: async ({ t }) => {
      // A booking by date alone: only while no site takes bookings (the site cells below make some).
      await t.db.updateTable('sites').set({ active: 0 }).execute();
      return { payload: donationForm(TODAY) };
    },
  },
  'POST /api/donations/:id/reschedule': {
    owner: 'donor',
    expect: { ...only('DONOR', 200), stranger: 403 },
    call: async ({ t, donor }) => {
      await t.db.updateTable('sites').set({ active: 0 }).execute();
      await t.db.updateTable('donations').set({ status: 'cancelled' }).where('donor_id', '=', donor.id).where('status', '=', 'pending').execute();
      return { params: { id: await insertPendingDonation(t, donor.id) }, payload: { date: addDays(TODAY, 1) } };
    },
  },
  'GET /api/donations/:id/calendar.ics': {
    owner: 'donor',
    expect: { ...only('DONOR', 200), stranger: 403 },
    call: async ({ t, donor }) => {
      await t.db.updateTable('donations').set({ status: 'cancelled' }).where('donor_id', '=', donor.id).where('status', '=', 'pending').execute();
      return { params: { id: await insertPendingDonation(t, donor.id) } };
    },
  },
  'GET /api/sites': { expect: signedIn(200) },
  'GET /api/notifications': { expect: signedIn(200) },
  'POST /api/auth/renew': { expect: signedIn(200) },
  'POST /api/auth/password-reset': { expect: everyone(202), call: () => ({ payload: { username: 'nobody-by-this-name' } }) },
  'POST /api/auth/password-reset/confirm': {
    expect: everyone(400),
    call: () => ({ payload: { token: 'not-a-token-anyone-was-sent', password: 'a-new-password-1' } }),
  },
  'POST /api/notifications/read': { expect: signedIn(204), call: () => ({ payload: { all: true } }) },
  'PATCH /api/users/me': { expect: { anonymous: 401, donor: 200, patient: 200, admin: 403 }, call: () => ({ payload: { address: '9 New Street' } }) },
  // A wrong current password: the call is let through and refused on the field, so no caller's session ends.
  'POST /api/users/me/password': {
    expect: signedIn(422),
    call: () => ({ payload: { current_password: 'not-the-password', new_password: 'another-secret-1' } }),
  },
  'GET /api/users/me/preferences': { expect: { anonymous: 401, donor: 200, patient: 200, admin: 403 } },
  'PATCH /api/users/me/preferences': { expect: { anonymous: 401, donor: 200, patient: 200, admin: 403 }, call: () => ({ payload: { callouts: true } }) },
  'GET /api/sites/:id/slots': {
    expect: signedIn(200),
    call: async ({ t }) => ({ params: { id: await insertSite(t) }, query: { date: addDays(TODAY, 1) } }),
  },
  'GET /api/admin/sites': { expect: only('ADMIN', 200) },
  'GET /api/admin/callouts': { expect: only('ADMIN', 200) },
  'POST /api/admin/callouts': { expect: only('ADMIN', 201), call: () => ({ payload: { bloodgroup: 'AB-' } }) },
  'POST /api/admin/sites': {
    expect: only('ADMIN', 201),
    call: () => ({
      payload: {
        name: 'Matrix Hall',
        address: '3 Grid Road',
        hours: { monday: { open: '08:00', close: '12:00' }, tuesday: null, wednesday: null, thursday: null, friday: null, saturday: null, sunday: null },
        active: false,
      },
    }),
  },
  'PATCH /api/admin/sites/:id': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({ params: { id: await insertSite(t, { active: false }) }, payload: { capacity: 3 } }),
  },
  'POST /api/admin/sites/:id/affected-bookings': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({
      params: { id: await insertSite(t, { active: false }) },
      payload: {
        hours: { monday: { open: '08:00', close: '12:00' }, tuesday: null, wednesday: null, thursday: null, friday: null, saturday: null, sunday: null },
        closed_dates: [],
      },
    }),
  },
  'GET /api/admin/sites/:id/day': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({ params: { id: await insertSite(t, { active: false }) }, query: { date: TODAY } }),
  },
  'POST /api/admin/donations/:id/check-in': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({ params: { id: await insertPendingDonation(t, (await createDonor(t)).id) } }),
  },
  'POST /api/donations/:id/cancel': {
    owner: 'donor',
    expect: { ...only('DONOR', 200), stranger: 403 },
    call: async ({ t, donor }) => {
      // One pending booking per donor: an earlier cell's booking is cancelled first.
      await t.db.updateTable('donations').set({ status: 'cancelled' }).where('donor_id', '=', donor.id).where('status', '=', 'pending').execute();
      return { params: { id: await insertPendingDonation(t, donor.id) } };
    },
  },
  'GET /api/donations/mine': { expect: only('DONOR', 200) },
  'GET /api/donor/summary': { expect: only('DONOR', 200) },

  'GET /api/game/profiles/me': { expect: only('DONOR', 200), call: withOwnGameProfile },
  'POST /api/game/profiles': {
    expect: only('DONOR', 201),
    call: () => ({ payload: { points: 1_000_000, level: 99 } }),
  },
  'GET /api/game/state': { expect: only('DONOR', 200), call: withOwnGameProfile },
  'POST /api/game/donation-complete': {
    expect: only('DONOR', 200),
    call: async ({ t, admin }, caller) => {
      // A collected donation credits the reward the route returns.
      if (isRole(caller, 'DONOR')) {
        const donationId = await insertPendingDonation(t, caller.id);
        const collected = await t.app.inject({
          method: 'POST',
          url: `/api/admin/donations/${donationId}/collect`,
          headers: admin.headers,
          payload: PASSING_SCREENING,
        });
        expect(collected.statusCode).toBe(200);
      }
      return {};
    },
  },
  'GET /api/game/leaderboard': { expect: signedIn(200), call: () => ({ query: { limit: '5' } }) },
  'GET /api/game/achievements': { expect: signedIn(200) },
  'GET /api/game/achievements/me': { expect: only('DONOR', 200) },

  'POST /api/requests': { expect: only('PATIENT', 201), call: () => ({ payload: requestForm }) },
  'GET /api/requests/mine': { expect: only('PATIENT', 200) },
  'POST /api/requests/:id/cancel': {
    owner: 'patient',
    expect: { ...only('PATIENT', 200), stranger: 403 },
    call: async ({ t, patient }) => ({ params: { id: await insertPendingRequest(t, patient.id) } }),
  },
  'GET /api/patient/summary': { expect: only('PATIENT', 200) },

  'GET /api/admin/dashboard': { expect: only('ADMIN', 200) },
  'GET /api/admin/audit': {
    expect: only('ADMIN', 200),
    call: () => ({ query: { page: '1', pageSize: '5' } }),
  },
  'GET /api/admin/export/donations.csv': { expect: only('ADMIN', 200) },
  'GET /api/admin/export/requests.csv': { expect: only('ADMIN', 200) },
  'GET /api/admin/export/units.csv': { expect: only('ADMIN', 200) },
  'GET /api/admin/donors': {
    expect: only('ADMIN', 200),
    call: () => ({ query: { search: 'Test', page: '1' } }),
  },
  'GET /api/admin/donors/:id': {
    expect: only('ADMIN', 200),
    call: ({ donor }) => ({ params: { id: donor.id } }),
  },
  'PATCH /api/admin/donors/:id': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({
      params: { id: (await createDonor(t)).id },
      payload: { address: '2 New Road' },
    }),
  },
  'DELETE /api/admin/donors/:id': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({ params: { id: (await createDonor(t)).id } }),
  },
  'GET /api/admin/patients': { expect: only('ADMIN', 200) },
  'GET /api/admin/patients/:id': {
    expect: only('ADMIN', 200),
    call: ({ patient }) => ({ params: { id: patient.id } }),
  },
  'PATCH /api/admin/patients/:id': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({ params: { id: (await createPatient(t)).id }, payload: { age: 41 } }),
  },
  'DELETE /api/admin/patients/:id': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({ params: { id: (await createPatient(t)).id } }),
  },
  'GET /api/admin/units': {
    expect: only('ADMIN', 200),
    call: () => ({ query: { bloodgroup: 'O+', status: 'available' } }),
  },
  'POST /api/admin/units': {
    expect: only('ADMIN', 201),
    call: () => ({ payload: { bloodgroup: 'AB-', count: 2, collected_on: TODAY } }),
  },
  'POST /api/admin/units/discard': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({
      payload: { unit_ids: await insertAvailableUnits(t, 'B-', 1), reason: 'Damaged bag' },
    }),
  },
  'GET /api/admin/donations': { expect: only('ADMIN', 200), call: () => ({ query: { status: 'pending' } }) },
  'GET /api/admin/screening-thresholds': { expect: only('ADMIN', 200) },
  'POST /api/admin/donations/:id/collect': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({ params: { id: await insertPendingDonation(t, (await createDonor(t)).id) }, payload: PASSING_SCREENING }),
  },
  'POST /api/admin/donations/:id/results': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({
      params: { id: await insertCollectedDonation(t, (await createDonor(t)).id) },
      payload: { ...NEGATIVE_RESULTS, bloodgroup: 'O+' },
    }),
  },
  'GET /api/admin/donors/:id/deferrals': {
    expect: only('ADMIN', 200),
    call: ({ donor }) => ({ params: { id: donor.id } }),
  },
  'POST /api/admin/donors/:id/deferrals': {
    expect: only('ADMIN', 201),
    call: async ({ t }) => ({
      params: { id: (await createDonor(t)).id },
      payload: { type: 'temporary', until: addDays(TODAY, 14), reason: 'Recent tattoo' },
    }),
  },
  'POST /api/admin/deferrals/:id/lift': {
    expect: only('ADMIN', 200),
    call: async ({ t, admin }) => ({
      params: { id: await insertDeferral(t, (await createDonor(t)).id, admin.id) },
      payload: { reason: 'Cleared by the doctor' },
    }),
  },
  'POST /api/admin/units/:id/process': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => {
      const donationId = await insertPendingDonation(t, (await createDonor(t)).id);
      await t.db.updateTable('donations').set({ status: 'collected', collected_on: TODAY }).where('id', '=', donationId).execute();
      const unitId = await insertHeldUnit(t, donationId, 'testing');
      await t.db.updateTable('blood_units').set({ component: 'whole_blood' }).where('id', '=', unitId).execute();
      return { params: { id: unitId }, payload: { components: ['red_cells', 'plasma', 'platelets'] } };
    },
  },
  'POST /api/admin/units/:id/release': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => {
      const donationId = await insertPendingDonation(t, (await createDonor(t)).id);
      await t.db.updateTable('donations').set({ status: 'released', collected_on: TODAY }).where('id', '=', donationId).execute();
      return { params: { id: await insertHeldUnit(t, donationId, 'lookback') } };
    },
  },
  'POST /api/admin/donations/:id/reject': {
    expect: only('ADMIN', 200),
    call: async ({ t }) => ({
      params: { id: await insertPendingDonation(t, (await createDonor(t)).id) },
      payload: { reason: 'Low haemoglobin' },
    }),
  },
  'GET /api/admin/requests': {
    expect: only('ADMIN', 200),
    call: () => ({ query: { status: 'pending', page: '1' } }),
  },
  'POST /api/admin/requests/:id/approve': {
    expect: only('ADMIN', 200),
    call: async ({ t, patient }) => {
      await insertAvailableUnits(t, 'A-', 2);
      return { params: { id: await insertPendingRequest(t, patient.id, { bloodgroup: 'A-', units: 2 }) } };
    },
  },
  'POST /api/admin/requests/:id/reject': {
    expect: only('ADMIN', 200),
    call: async ({ t, patient }) => ({
      params: { id: await insertPendingRequest(t, patient.id) },
      payload: {},
    }),
  },
};

const keyOf = (route: Pick<ApiRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;
const NO_SUCH_ID = 2_000_000_000;

function urlFor(template: string, call: Call): string {
  const path = template.replace(/:(\w+)/g, (_match, name: string) => {
    const value = call.params?.[name];
    if (value === undefined) throw new Error(`${template}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  const query = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
  return path + query;
}

let t: TestApp;
let routes: readonly ApiRoute[];

beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: { RATE_LIMIT_MAX: '1000000' } });
  routes = t.app.apiRoutes;
});
afterAll(() => t.close());

describe('the authorization matrix', () => {
  it('has an entry for every /api route, and no entry for a route that does not exist', () => {
    const served = new Set(routes.map(keyOf));
    const missing = [...served].filter((key) => !(key in ROUTE_EXPECTATIONS));
    const stale = Object.keys(ROUTE_EXPECTATIONS).filter((key) => !served.has(key));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  it("agrees with each route's declared access", () => {
    const disagreements: string[] = [];
    for (const route of routes) {
      const entry = ROUTE_EXPECTATIONS[keyOf(route)];
      if (!entry) continue;
      const refused = (status: number) => status === 401 || status === 403;
      if (route.access === 'public') {
        if (refused(entry.expect.anonymous))
          disagreements.push(`${keyOf(route)} is public but anonymous is refused`);
        continue;
      }
      if (entry.expect.anonymous !== 401)
        disagreements.push(`${keyOf(route)} is not public: anonymous must get 401`);
      for (const role of ['DONOR', 'PATIENT', 'ADMIN'] as const) {
        const declared = route.access === 'signed-in' || route.access.includes(role);
        const expected = entry.expect[role.toLowerCase() as 'donor' | 'patient' | 'admin'];
        if (!declared && expected !== 403)
          disagreements.push(`${keyOf(route)}: ${role} is not allowed, so must get 403`);
        // On someone's resource, a signed-in caller who is neither its owner nor an admin is refused by the service.
        const strangerToResource =
          entry.owner !== undefined && role !== 'ADMIN' && role.toLowerCase() !== entry.owner;
        if (declared && refused(expected) && !(strangerToResource && expected === 403)) {
          disagreements.push(`${keyOf(route)}: ${role} is allowed but expected ${expected}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('answers every route, for every caller, exactly as the table says', async () => {
    const failures: string[] = [];
    let checks = 0;
    for (const route of routes) {
      const key = keyOf(route);
      const entry = ROUTE_EXPECTATIONS[key];
      if (!entry) continue;
      const world: World = {
        t,
        donor: await createDonor(t),
        patient: await createPatient(t),
        admin: await createAdmin(t),
        otherDonor: await createDonor(t),
        otherPatient: await createPatient(t),
      };
      // Refused callers first, the allowed ones last, so that an allowed write cannot change what a refused caller sees.
      const callers: [Caller, TestUser | undefined][] = [
        ['anonymous', undefined],
        ...(entry.owner
          ? [
              ['stranger', entry.owner === 'donor' ? world.otherDonor : world.otherPatient] as [
                Caller,
                TestUser,
              ],
            ]
          : []),
        ['donor', world.donor],
        ['patient', world.patient],
        ['admin', world.admin],
      ];
      callers.sort(
        ([a], [b]) =>
          Number(entry.expect[a] !== undefined && entry.expect[a] < 400) -
          Number(entry.expect[b] !== undefined && entry.expect[b] < 400),
      );
      for (const [caller, user] of callers) {
        const expected = entry.expect[caller];
        if (expected === undefined) throw new Error(`${key}: no expectation for ${caller}`);
        const call = (await entry.call?.(world, user)) ?? {};
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: urlFor(route.url, call),
          headers: { ...call.headers, ...user?.headers },
          ...(call.payload === undefined ? {} : { payload: call.payload as string }),
        });
        checks += 1;
        if (response.statusCode !== expected) {
          failures.push(
            `${key} as ${caller}: expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 200)}`,
          );
        } else if (expected >= 400 && typeof response.json<{ detail?: unknown }>().detail !== 'string') {
          failures.push(
            `${key} as ${caller}: ${expected} without a string detail: ${response.body.slice(0, 200)}`,
          );
        }
      }
    }
    console.info(`authorization matrix: ${routes.length} routes, ${checks} route x caller checks`);
    expect(failures).toEqual([]);
    expect(checks).toBeGreaterThanOrEqual(routes.length * 4);
  });

  it('answers 404 to the allowed caller for an id that names nothing', async () => {
    const failures: string[] = [];
    const admin = await createAdmin(t);
    for (const route of routes.filter((r) => r.url.includes(':id'))) {
      const key = keyOf(route);
      const entry = ROUTE_EXPECTATIONS[key];
      if (!entry) continue;
      const caller =
        entry.expect.admin < 400
          ? admin
          : entry.expect.patient < 400
            ? await createPatient(t)
            : await createDonor(t);
      const world: World = {
        t,
        donor: caller,
        patient: caller,
        admin,
        otherDonor: caller,
        otherPatient: caller,
      };
      const call = (await entry.call?.(world, caller)) ?? {};
      const response = await t.app.inject({
        method: route.method as 'GET',
        url: urlFor(route.url, { ...call, params: { id: NO_SUCH_ID } }),
        headers: caller.headers,
        ...(call.payload === undefined ? {} : { payload: call.payload as string }),
      });
      const expected = entry.unknownId ?? 404;
      if (response.statusCode !== expected)
        failures.push(`${key}: expected ${expected}, got ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
  });

  it("refuses HEAD like GET (Fastify's automatic HEAD routes carry the same check)", async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.method === 'GET' && r.access !== 'public')) {
      const url = urlFor(route.url, { params: { id: 1 } });
      const head = await t.app.inject({ method: 'HEAD', url });
      if (head.statusCode !== 401) failures.push(`HEAD ${route.url}: expected 401, got ${head.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('keeps the API documentation public and lists every route in it', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(
      response.json<{ paths: Record<string, object> }>().paths,
    )) {
      for (const method of Object.keys(operations))
        documented.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
    }
    expect(routes.map(keyOf).filter((key) => !documented.has(key))).toEqual([]);
  });
});
