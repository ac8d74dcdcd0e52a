import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { addDays } from '@bloodbank/shared/dates';
import { ID_PARAM_MESSAGE } from '@bloodbank/shared/fields';
import type { ApiRoute } from '../../src/plugins/access';
import { avatarDirectory } from '../../src/lib/uploads';
import { donationForm, NEGATIVE_RESULTS, PASSING_SCREENING } from '../donation-helpers';
import { createAdmin, createDonor, createPatient, type TestUser } from '../factories';
import { multipartBody, TINY_PNG } from '../multipart';
import { createTestApp, type TestApp } from '../test-app';
import {
  countRows,
  fingerprintOfUpdatableRows,
  insertAvailableUnits,
  insertCollectedDonation,
  insertDeferral,
  insertPendingDonation,
  insertPendingRequest,
  insertSite,
} from './fixtures';
import {
  hostileBody,
  hostileIdSegment,
  hostileQuery,
  hostileValue,
  type HostileBody,
} from './hostile-values';

/**
 * Every endpoint that reads a body or a query string gets bodies and queries no form would send.
 * Whatever arrives: never a 5xx; a refusal is a 4xx with a string `detail` and writes nothing; an
 * acceptance stores what was sent and nothing the client had no right to set.
 */

const NOW = '2026-05-04T10:00:00.000Z';
const TODAY = '2026-05-04';
const RUNS = 60;

let t: TestApp;
let donor: TestUser;
let patient: TestUser;
let admin: TestUser;
let editedDonor: TestUser;
let editedPatient: TestUser;
/** An active site (so a booking names a site and slot) and a donor with a booking there to move. */
let siteId: number;
let mover: TestUser;
let moverBookingId: number;
let tried = 0;
const outcomes = new Map<number, number>();

beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: { RATE_LIMIT_MAX: '1000000' } });
  donor = await createDonor(t, { bloodgroup: 'AB-' });
  patient = await createPatient(t);
  admin = await createAdmin(t);
  editedDonor = await createDonor(t);
  editedPatient = await createPatient(t);
  await insertAvailableUnits(t, 'O+', 20);
  siteId = await insertSite(t);
  mover = await createDonor(t);
  const booked = await t.app.inject({
    method: 'POST',
    url: '/api/donations',
    headers: mover.headers,
    payload: donationForm(addDays(TODAY, 1), { site_id: siteId, slot: '09:00' }),
  });
  moverBookingId = booked.json<{ id: number }>().id;
});
afterAll(async () => {
  const byStatus = [...outcomes].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`);
  console.info(`hostile input: ${tried} requests tried (${byStatus.join(', ')})`);
  await t.close();
});

interface Target {
  caller: () => TestUser | undefined;
  /** A valid body or query: the starting point of every mutation. */
  valid: () => Record<string, unknown>;
  /** Fresh path parameters for each attempt (created before the row counts are taken). */
  params?: () => Promise<Record<string, number>>;
  /** Refusals must also leave existing rows unchanged (routes that update rather than insert). */
  updates?: boolean;
  /** Checks an accepted request did only what the client may ask for. */
  accepted?: (response: LightMyRequestResponse, sent: unknown) => Promise<void> | void;
}

let sequence = 0;
const freshUsername = () => `hostile_${++sequence}_${process.pid}`;

const registrationBody = () => ({
  user_type: 'patient',
  username: freshUsername(),
  password: 'secret-pass-1',
  first_name: 'Meera',
  last_name: 'Iyer',
  email: 'meera@example.org',
  bloodgroup: 'A+',
  address: '3 Hill Road',
  mobile: '9876543210',
  disease: 'Surgery',
  age: 34,
  doctorname: 'Dr. Rao',
});

/**
 * Form fields the client sent come back as sent (trimmed; text travels as UTF-8, so a lone surrogate
 * becomes U+FFFD; in Unicode's NFC form), never interpreted. Other fields it added are not echoed:
 * they must be ignored.
 */
function expectEchoed(fields: readonly string[], response: LightMyRequestResponse, sent: unknown) {
  if (typeof sent !== 'object' || sent === null) return;
  const body = response.json<Record<string, unknown>>();
  for (const [field, value] of Object.entries(sent)) {
    if (!fields.includes(field) || typeof value !== 'string' || typeof body[field] !== 'string') continue;
    expect(body[field]).toBe(Buffer.from(value.trim()).toString().normalize('NFC'));
  }
}

/** An edit of someone's details never touches their sign-in: name, role, activation, token version. */
async function expectAccountUntouched(user: TestUser) {
  const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
  expect([row.username, row.role, row.is_active, row.token_version]).toEqual([
    user.username,
    user.role,
    1,
    0,
  ]);
}

const TARGETS: Record<string, Target> = {
  'POST /api/auth/register': {
    caller: () => undefined,
    valid: registrationBody,
    accepted: async (response, sent) => {
      const created = response.json<{ user_id: number; user_type: string }>();
      const row = await t.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', created.user_id)
        .executeTakeFirstOrThrow();
      expect(row.role).toBe(created.user_type === 'donor' ? 'DONOR' : 'PATIENT');
      expect([row.is_active, row.token_version]).toEqual([1, 0]);
      expectEchoed(['username'], response, sent);
    },
  },
  'POST /api/auth/token': {
    caller: () => undefined,
    valid: () => ({ username: donor.username, password: donor.password }),
    accepted: (response) => expect(response.json<{ user_id: number }>().user_id).toBe(donor.id),
  },
  'POST /api/donations': {
    caller: () => donor,
    valid: () => donationForm(addDays(TODAY, 1), { site_id: siteId, slot: '10:00' }),
    accepted: (response) => {
      const donation = response.json<{ bloodgroup: string; status: string }>();
      // The blood group is the donor's own whatever the body said; every donation starts pending.
      expect([donation.bloodgroup, donation.status]).toEqual(['AB-', 'pending']);
    },
  },
  'POST /api/requests': {
    caller: () => patient,
    valid: () => ({
      bloodgroup: 'B+',
      unit: 2,
      date: addDays(TODAY, 3),
      doctorname: 'Dr. Mehta',
      hospitaladdress: 'City Hospital',
      reason: 'Surgery',
    }),
    accepted: async (response, sent) => {
      const created = response.json<{ id: number; status: string; issued_unit_ids: number[] }>();
      expect([created.status, created.issued_unit_ids]).toEqual(['pending', []]);
      const row = await t.db
        .selectFrom('blood_requests')
        .select('patient_id')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row.patient_id).toBe(patient.id);
      expectEchoed(['bloodgroup', 'date', 'doctorname', 'hospitaladdress', 'reason'], response, sent);
    },
  },
  'POST /api/game/profiles': {
    caller: () => donor,
    valid: () => ({ points: 100_000, level: 50, donation_streak: 9 }),
    accepted: (response) =>
      expect(response.json()).toMatchObject({ points: 0, level: 1, donation_streak: 0 }),
  },
  'POST /api/game/donation-complete': {
    caller: () => donor,
    valid: () => ({ donation_id: 1, points: 5000 }),
    accepted: (response) =>
      expect(response.json<{ profile: { points: number } }>().profile.points).toBeLessThanOrEqual(200),
  },
  'POST /api/donations/:id/reschedule': {
    caller: () => mover,
    valid: () => ({ date: addDays(TODAY, 2), site_id: siteId, slot: '11:00' }),
    params: () => Promise.resolve({ id: moverBookingId }),
    updates: true,
    accepted: (response) => expect(response.json()).toMatchObject({ id: moverBookingId, status: 'pending' }),
  },
  // An account that does not exist: the link is issued after the answer, and must not write
  // between another target's row counts.
  'POST /api/auth/password-reset': { caller: () => undefined, valid: () => ({ username: 'no-such-account' }) },
  'POST /api/auth/password-reset/confirm': {
    caller: () => undefined,
    valid: () => ({ token: 'x'.repeat(43), password: 'a-new-password-1' }),
  },
  'POST /api/admin/callouts': {
    caller: () => admin,
    valid: () => ({ bloodgroup: 'AB-' }),
    accepted: (response) => expect(response.json()).toMatchObject({ notified: expect.any(Number) }),
  },
  'POST /api/notifications/read': {
    caller: () => donor,
    valid: () => ({ ids: [1, 2, 3] }),
    updates: true,
  },
  'PATCH /api/users/me/preferences': {
    caller: () => editedPatient,
    valid: () => ({ email_notifications: false, callouts: true }),
    updates: true,
    accepted: async () => expectAccountUntouched(editedPatient),
  },
  // Never the caller's password: an accepted change would end the session the next attempts use.
  'POST /api/users/me/password': {
    caller: () => editedDonor,
    valid: () => ({ current_password: 'not-the-password', new_password: 'another-secret-1' }),
    updates: true,
    accepted: () => expect.unreachable('a wrong current password was accepted'),
  },
  'PATCH /api/users/me': {
    caller: () => editedPatient,
    valid: () => ({ first_name: 'Mira', mobile: '9876543210', address: '5 Lake Road' }),
    updates: true,
    // Whatever else is sent (a role, a blood group, a username), only the contact details change.
    accepted: async () => {
      await expectAccountUntouched(editedPatient);
      const row = await t.db.selectFrom('users').select(['bloodgroup']).where('id', '=', editedPatient.id).executeTakeFirstOrThrow();
      // The factory's group: never the client's.
      expect(row.bloodgroup).toBe('O+');
    },
  },
  'GET /api/sites/:id/slots': {
    caller: () => donor,
    valid: () => ({ date: addDays(TODAY, 1) }),
    params: () => Promise.resolve({ id: siteId }),
  },
  'POST /api/admin/sites/:id/affected-bookings': {
    caller: () => admin,
    valid: () => ({
      hours: { monday: { open: '09:00', close: '13:00' }, tuesday: null, wednesday: null, thursday: null, friday: null, saturday: null, sunday: null },
      closed_dates: [addDays(TODAY, 7)],
    }),
    params: () => Promise.resolve({ id: siteId }),
  },
  'GET /api/admin/sites/:id/day': {
    caller: () => admin,
    valid: () => ({ date: addDays(TODAY, 1) }),
    params: () => Promise.resolve({ id: siteId }),
  },
  'POST /api/admin/sites': {
    caller: () => admin,
    // Inactive: the donation targets keep booking at the one active site.
    valid: () => ({
      name: 'Mobile unit',
      address: '4 Market Square',
      hours: { monday: { open: '09:00', close: '13:00' }, tuesday: null, wednesday: null, thursday: null, friday: null, saturday: null, sunday: null },
      slot_minutes: 20,
      capacity: 3,
      closed_dates: [addDays(TODAY, 7)],
      active: false,
    }),
    accepted: (response, sent) => expectEchoed(['name', 'address'], response, sent),
  },
  'PATCH /api/admin/sites/:id': {
    caller: () => admin,
    valid: () => ({ capacity: 4, closed_dates: [addDays(TODAY, 3)], address: '5 Market Square' }),
    params: async () => ({ id: await insertSite(t, { active: false }) }),
    updates: true,
    accepted: (response, sent) => expectEchoed(['name', 'address'], response, sent),
  },
  'GET /api/game/leaderboard': { caller: () => donor, valid: () => ({ limit: '5' }) },
  'GET /api/notifications': { caller: () => donor, valid: () => ({ before: '1000' }) },
  'GET /api/admin/audit': {
    caller: () => admin,
    valid: () => ({ page: '1', pageSize: '10', entity: 'donation' }),
  },
  'GET /api/admin/donors': {
    caller: () => admin,
    valid: () => ({ search: 'Test', sort: 'name', order: 'asc', page: '1' }),
  },
  'GET /api/admin/patients': {
    caller: () => admin,
    valid: () => ({ search: 'Test', sort: 'username', page: '2' }),
  },
  'GET /api/admin/units': {
    caller: () => admin,
    valid: () => ({ bloodgroup: 'O+', status: 'available', unit: '12', pageSize: '5' }),
  },
  'GET /api/admin/donations': { caller: () => admin, valid: () => ({ status: 'pending', page: '1' }) },
  'GET /api/admin/requests': { caller: () => admin, valid: () => ({ status: 'approved', pageSize: '3' }) },
  'PATCH /api/admin/donors/:id': {
    caller: () => admin,
    valid: () => ({ first_name: 'Anil', mobile: '9123456780', bloodgroup: 'B-' }),
    params: () => Promise.resolve({ id: editedDonor.id }),
    updates: true,
    accepted: async (response, sent) => {
      expectEchoed(['first_name', 'last_name', 'email', 'bloodgroup', 'address', 'mobile'], response, sent);
      await expectAccountUntouched(editedDonor);
    },
  },
  'PATCH /api/admin/patients/:id': {
    caller: () => admin,
    valid: () => ({ age: 50, disease: 'Cancer', doctorname: 'Dr. Sen' }),
    params: () => Promise.resolve({ id: editedPatient.id }),
    updates: true,
    accepted: async (response, sent) => {
      expectEchoed(['first_name', 'disease', 'doctorname', 'address'], response, sent);
      await expectAccountUntouched(editedPatient);
    },
  },
  'POST /api/admin/units': {
    caller: () => admin,
    valid: () => ({ bloodgroup: 'A-', count: 2, collected_on: TODAY }),
    accepted: (response, sent) => {
      const units = response.json<{ units: { status: string }[] }>().units;
      expect(units.length).toBe(Number((sent as { count: unknown }).count));
      expect(units.every((unit) => unit.status === 'available')).toBe(true);
    },
  },
  'POST /api/admin/units/discard': {
    caller: () => admin,
    valid: () => ({ bloodgroup: 'O+', count: 1, reason: 'Broken bag' }),
    updates: true,
  },
  'POST /api/admin/donations/:id/reject': {
    caller: () => admin,
    valid: () => ({ reason: 'Low haemoglobin' }),
    params: async () => ({ id: await insertPendingDonation(t, (await createDonor(t)).id) }),
    updates: true,
  },
  'POST /api/admin/donations/:id/collect': {
    caller: () => admin,
    valid: () => PASSING_SCREENING,
    params: async () => ({ id: await insertPendingDonation(t, (await createDonor(t)).id) }),
    updates: true,
    // A mutated measurement that is still possible may fail a threshold: deferred is an acceptance too.
    accepted: (response) => expect(['collected', 'deferred']).toContain(response.json<{ status: string }>().status),
  },
  'POST /api/admin/donations/:id/results': {
    caller: () => admin,
    valid: () => ({ ...NEGATIVE_RESULTS, bloodgroup: 'O+' }),
    params: async () => ({ id: await insertCollectedDonation(t, (await createDonor(t)).id) }),
    updates: true,
    accepted: (response) => expect(response.json<{ status: string }>().status).toBe('released'),
  },
  'POST /api/admin/units/:id/process': {
    caller: () => admin,
    valid: () => ({ components: ['red_cells', 'plasma'] }),
    params: async () => {
      const donationId = await insertCollectedDonation(t, (await createDonor(t)).id);
      const [unit] = await t.db.selectFrom('blood_units').select('id').where('donation_id', '=', donationId).execute();
      await t.db.updateTable('blood_units').set({ component: 'whole_blood' }).where('id', '=', unit!.id).execute();
      return { id: unit!.id };
    },
    accepted: (response) =>
      expect(response.json<{ units: { component: string; status: string }[] }>().units.map((unit) => unit.status)).toEqual([
        'quarantined',
        'quarantined',
      ]),
  },
  'POST /api/admin/donors/:id/deferrals': {
    caller: () => admin,
    valid: () => ({ type: 'temporary', until: addDays(TODAY, 14), reason: 'Recent tattoo' }),
    params: async () => ({ id: (await createDonor(t)).id }),
    accepted: (response) => expect(response.json()).toMatchObject({ type: 'temporary', source: 'manual', active: true }),
  },
  'POST /api/admin/deferrals/:id/lift': {
    caller: () => admin,
    valid: () => ({ reason: 'Cleared by the doctor' }),
    params: async () => ({ id: await insertDeferral(t, (await createDonor(t)).id, admin.id) }),
    accepted: (response) => expect(response.json()).toMatchObject({ active: false, lift_reason: expect.any(String) }),
  },
  'POST /api/admin/requests/:id/approve': {
    caller: () => admin,
    valid: () => ({ bloodgroup: 'O+' }),
    params: async () => ({ id: await insertPendingRequest(t, patient.id, { bloodgroup: 'O-', units: 1 }) }),
    updates: true,
  },
  'POST /api/admin/requests/:id/reject': {
    caller: () => admin,
    valid: () => ({ reason: 'Duplicate request' }),
    params: async () => ({ id: await insertPendingRequest(t, patient.id) }),
    updates: true,
  },
};

const keyOf = (route: Pick<ApiRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;
const fillParams = (url: string, params: Record<string, number | string> = {}) =>
  url.replace(/:(\w+)/g, (_match, name: string) => String(params[name]));

function payloadOf(body: HostileBody): Pick<InjectOptions, 'payload' | 'headers'> {
  if (body.kind === 'raw') return { payload: body.text, headers: { 'content-type': body.contentType } };
  // undefined is "no body at all"; everything else travels as JSON.
  if (body.value === undefined) return { headers: { 'content-type': 'application/json' } };
  return { payload: JSON.stringify(body.value), headers: { 'content-type': 'application/json' } };
}

function avatarFileCount(): number {
  const directory = avatarDirectory(t.config.dataDir);
  return fs.existsSync(directory) ? fs.readdirSync(directory).length : 0;
}

/** Sends one hostile request and checks the outcome; the request is sent as `send` builds it. */
async function attempt(
  target: Target,
  describeAttempt: string,
  send: (params: Record<string, number> | undefined) => InjectOptions,
  sent: unknown,
): Promise<void> {
  const params = await target.params?.();
  const rowsBefore = await countRows(t.db);
  const contentBefore = target.updates ? await fingerprintOfUpdatableRows(t.db) : undefined;
  const filesBefore = avatarFileCount();
  const options = send(params);
  const caller = target.caller();
  const response = await t.app.inject({ ...options, headers: { ...options.headers, ...caller?.headers } });
  tried += 1;
  outcomes.set(response.statusCode, (outcomes.get(response.statusCode) ?? 0) + 1);
  const context = `${describeAttempt} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, context).toBeLessThan(500);
  if (response.statusCode >= 400) {
    expect(typeof response.json<{ detail?: unknown }>().detail, context).toBe('string');
    expect(await countRows(t.db), context).toEqual(rowsBefore);
    expect(avatarFileCount(), context).toBe(filesBefore);
    if (contentBefore !== undefined)
      expect(await fingerprintOfUpdatableRows(t.db), context).toBe(contentBefore);
  } else {
    expect(response.statusCode, context).toBeGreaterThanOrEqual(200);
    await target.accepted?.(response, sent);
  }
}

/** PostgreSQL refuses U+0000 in text: always tried, not left to chance. */
const withNulInEveryText = (valid: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(valid).map(([field, value]) => [
      field,
      typeof value === 'string' ? `${value}\u0000` : value,
    ]),
  );

let routes: readonly ApiRoute[];
beforeAll(() => {
  routes = t.app.apiRoutes;
});

describe('hostile input', () => {
  it('covers every route that reads a body or a query string', () => {
    const needing = routes.filter((route) => route.hasBody || route.hasQuery).map(keyOf);
    expect(needing.filter((key) => !(key in TARGETS))).toEqual([]);
    expect(Object.keys(TARGETS).filter((key) => !needing.includes(key))).toEqual([]);
  });

  for (const [key, target] of Object.entries(TARGETS)) {
    const [method, url] = key.split(' ') as [InjectOptions['method'], string];
    const isQuery = method === 'GET';

    it(`${key}: never a 5xx, refusals write nothing`, async () => {
      if (isQuery) {
        await fc.assert(
          fc.asyncProperty(hostileQuery(target.valid() as Record<string, string>), async (query) => {
            await attempt(
              target,
              `${key}?${query}`,
              (params) => ({ method, url: `${fillParams(url, params)}?${query}` }),
              query,
            );
          }),
          {
            numRuns: RUNS,
            examples: [
              [new URLSearchParams(withNulInEveryText(target.valid()) as Record<string, string>).toString()],
            ],
          },
        );
        return;
      }
      await fc.assert(
        fc.asyncProperty(hostileBody(target.valid()), async (body) => {
          const shown = body.kind === 'raw' ? body.text : JSON.stringify(body.value);
          await attempt(
            target,
            `${key} ${String(shown).slice(0, 300)}`,
            (params) => ({ method, url: fillParams(url, params), ...payloadOf(body) }),
            body.kind === 'json' ? body.value : undefined,
          );
        }),
        { numRuns: RUNS, examples: [[{ kind: 'json', value: withNulInEveryText(target.valid()) }]] },
      );
    });
  }

  it('POST /api/auth/token as a form: never a 5xx, never a token for wrong credentials', async () => {
    const formValue = hostileValue.map((value) =>
      typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({ username: formValue, password: formValue }),
        fc.boolean(),
        async (fields, ownName) => {
          const body = new URLSearchParams({
            ...fields,
            ...(ownName ? { username: donor.username } : {}),
          }).toString();
          await attempt(
            {
              caller: () => undefined,
              valid: () => ({}),
              accepted: () => expect.unreachable('a wrong password was accepted'),
            },
            `form ${body.slice(0, 200)}`,
            () => ({
              method: 'POST',
              url: '/api/auth/token',
              payload: body,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
            }),
            undefined,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('POST /api/auth/register as multipart: hostile fields and files are refused without a trace', async () => {
    const hostileFile = fc.constantFrom(
      { content: Buffer.from('GIF89a\u0001\u0000\u0001\u0000'), contentType: 'image/gif', filename: 'a.gif' },
      {
        content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        contentType: 'image/svg+xml',
        filename: 'a.svg',
      },
      {
        content: Buffer.from('MZ\u0090\u0000 not an image'),
        contentType: 'image/png',
        filename: 'photo.png',
      },
      {
        content: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(64)]),
        contentType: 'image/jpeg',
        filename: '../../evil.jpg',
      },
      {
        content: Buffer.concat([TINY_PNG, Buffer.alloc(2 * 1024 * 1024)]),
        contentType: 'image/png',
        filename: 'big.png',
      },
      { content: TINY_PNG.subarray(0, 8), contentType: 'image/png', filename: 'truncated.png' },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom(
            'username',
            'age',
            'email',
            'mobile',
            'user_type',
            'bloodgroup',
            'password',
            'first_name',
            'doctorname',
          ),
          hostileValue,
          { maxKeys: 2 },
        ),
        hostileFile,
        fc.constantFrom('profile_pic', 'avatar'),
        async (replaced, file, fileField) => {
          const fields: Record<string, string> = {};
          for (const [name, value] of Object.entries({ ...registrationBody(), ...replaced })) {
            fields[name] = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
          }
          const { payload, headers } = multipartBody(fields, { field: fileField, ...file });
          await attempt(
            {
              caller: () => undefined,
              valid: () => ({}),
              accepted: () => expect.unreachable('a hostile picture was accepted'),
            },
            `multipart ${file.filename} as ${fileField} with ${JSON.stringify(replaced).slice(0, 200)}`,
            () => ({ method: 'POST', url: '/api/auth/register', payload, headers }),
            undefined,
          );
        },
      ),
      { numRuns: 30 },
    );
  });

  it('refuses prototype-poisoning bodies outright', async () => {
    for (const text of [
      '{"__proto__": {"role": "ADMIN"}, "bloodgroup": "A+", "unit": 1}',
      '{"constructor": {"prototype": {"role": "ADMIN"}}, "bloodgroup": "A+", "unit": 1}',
      '{"unit": 1, "nested": {"__proto__": {"isAdmin": true}}}',
    ]) {
      await attempt(
        {
          caller: () => patient,
          valid: () => ({}),
          accepted: () => expect.unreachable('a poisoned body was accepted'),
        },
        `POST /api/requests ${text}`,
        () => ({
          method: 'POST',
          url: '/api/requests',
          payload: text,
          headers: { 'content-type': 'application/json' },
        }),
        undefined,
      );
    }
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });

  it('answers an id in the path that is not a whole number from 1 with a 422 a person can read, on every route', async () => {
    const withIds = routes.filter((route) => /:id\b/.test(route.url));
    expect(withIds.length).toBeGreaterThan(10);
    for (const route of withIds) {
      const user = route.url.startsWith('/api/admin') ? admin : route.url.startsWith('/api/requests') ? patient : donor;
      for (const segment of ['abc', '1.5', '0', '-3', '99999999999']) {
        const url = route.url.replace(':id', segment);
        const response = await t.app.inject({ method: route.method as 'GET', url, headers: user.headers, payload: route.method === 'GET' ? undefined : {} });
        const context = `${route.method} ${url} -> ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect(response.statusCode, context).toBe(422);
        expect(response.json(), context).toMatchObject({ detail: ID_PARAM_MESSAGE, errors: { id: ID_PARAM_MESSAGE } });
      }
    }
  });

  it('never answers a 5xx to a hostile id in the path', async () => {
    const withIds = routes.filter((route) => route.url.includes(':'));
    expect(withIds.length).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withIds), hostileIdSegment, async (route, segment) => {
        const user = route.url.startsWith('/api/admin')
          ? admin
          : route.url.startsWith('/api/requests')
            ? patient
            : donor;
        await attempt(
          { caller: () => user, valid: () => ({}), updates: true },
          `${route.method} ${route.url} with :id = ${segment}`,
          () => ({ method: route.method as 'GET', url: route.url.replace(/:\w+/, segment) }),
          undefined,
        );
      }),
      { numRuns: 150 },
    );
  });
});
