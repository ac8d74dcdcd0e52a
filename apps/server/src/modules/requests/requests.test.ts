import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { BloodRequest } from '@bloodbank/shared/blood-request';
import type { BloodRequestsTable, BloodUnitsTable } from '../../db/types';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient, type TestUser } from '../../../test/factories';
import { requestActivityMessage } from './request-activity';
import { cancelPendingRequest } from './requests.repository';
import { multipartBody } from '../../../test/multipart';

// The blood bank's day is 2026-03-10 (UTC, the default time zone).
const NOW = '2026-03-10T12:00:00.000Z';
const TODAY = '2026-03-10';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
});
afterAll(() => t.close());
afterEach(() => t.clock.set(NOW));

const validForm = {
  bloodgroup: 'A+',
  unit: 2,
  date: '2026-03-20',
  doctorname: 'Dr. Mehta',
  hospitaladdress: 'City Hospital, 4 Lake Road',
  reason: 'Scheduled surgery',
};

const submit = (user: TestUser | undefined, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/requests', headers: user?.headers, payload: body });
const listMine = (user: TestUser | undefined) =>
  t.app.inject({ method: 'GET', url: '/api/requests/mine', headers: user?.headers });
const cancel = (user: TestUser | undefined, id: number | string) =>
  t.app.inject({ method: 'POST', url: `/api/requests/${id}/cancel`, headers: user?.headers });
const summaryOf = (user: TestUser | undefined) =>
  t.app.inject({ method: 'GET', url: '/api/patient/summary', headers: user?.headers });
const stockAs = (user: TestUser | undefined) =>
  t.app.inject({ method: 'GET', url: '/api/stock', headers: user?.headers });

/** A request row written straight to the database, for states the patient cannot create (approved, rejected). */
async function insertRequest(patientId: number, overrides: Partial<Insertable<BloodRequestsTable>> = {}) {
  const row = await t.db
    .insertInto('blood_requests')
    .values({
      patient_id: patientId,
      bloodgroup: 'B+',
      units: 1,
      required_date: '2026-03-15',
      doctorname: 'Dr. Rao',
      hospital_address: 'General Hospital',
      reason: 'Anaemia',
      status: 'pending',
      rejection_reason: null,
      issued_bloodgroup: null,
      decided_by: null,
      decided_at: null,
      created_at: NOW,
      ...overrides,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function unit(
  bloodgroup: BloodGroup,
  expires_on: string,
  overrides: Partial<Insertable<BloodUnitsTable>> = {},
) {
  return {
    bloodgroup,
    source: 'manual' as const,
    donation_id: null,
    collected_on: '2026-02-01',
    expires_on,
    status: 'available' as const,
    request_id: null,
    issued_at: null,
    discarded_at: null,
    discard_reason: null,
    created_at: NOW,
    ...overrides,
  };
}

async function insertUnits(units: ReturnType<typeof unit>[]): Promise<number[]> {
  const rows = await t.db.insertInto('blood_units').values(units).returning('id').execute();
  return rows.map((row) => row.id);
}

async function activitiesOf(userId: number) {
  return t.db
    .selectFrom('activities')
    .select(['kind', 'message'])
    .where('user_id', '=', userId)
    .where('kind', 'like', 'request_%')
    .orderBy('id')
    .execute();
}

async function statusOf(requestId: number) {
  const row = await t.db
    .selectFrom('blood_requests')
    .select('status')
    .where('id', '=', requestId)
    .executeTakeFirstOrThrow();
  return row.status;
}

async function requestCountOf(patientId: number) {
  const row = await t.db
    .selectFrom('blood_requests')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('patient_id', '=', patientId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('POST /api/requests', () => {
  it('stores a pending request and answers 201 with it', async () => {
    const patient = await createPatient(t);
    const response = await submit(patient, validForm);

    expect(response.statusCode).toBe(201);
    const created = response.json<BloodRequest>();
    expect(created).toEqual({
      id: expect.any(Number),
      bloodgroup: 'A+',
      unit: 2,
      date: '2026-03-20',
      doctorname: 'Dr. Mehta',
      hospitaladdress: 'City Hospital, 4 Lake Road',
      reason: 'Scheduled surgery',
      status: 'pending',
      rejection_reason: null,
      issued_bloodgroup: null,
      issued_unit_ids: [],
      component: 'red_cells',
      created_at: NOW,
      decided_at: null,
    });

    const row = await t.db
      .selectFrom('blood_requests')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      patient_id: patient.id,
      bloodgroup: 'A+',
      units: 2,
      required_date: '2026-03-20',
      doctorname: 'Dr. Mehta',
      hospital_address: 'City Hospital, 4 Lake Road',
      reason: 'Scheduled surgery',
      status: 'pending',
    });
  });

  it('refuses a multipart form (only registration takes one) with 415, storing nothing', async () => {
    const patient = await createPatient(t);
    const { payload, headers } = multipartBody(validForm as Record<string, string | number>);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      headers: { ...patient.headers, ...headers },
      payload,
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ detail: 'Unsupported content type', code: 'unsupported_media_type' });
    expect(await requestCountOf(patient.id)).toBe(0);
  });

  it("records the submission in the patient's activity feed", async () => {
    const patient = await createPatient(t);
    await submit(patient, { ...validForm, unit: 1, bloodgroup: 'O-', date: '2026-04-02' });
    expect(await activitiesOf(patient.id)).toEqual([
      {
        kind: 'request_submitted',
        message: 'Your request for 1 unit of O- red cells needed by 2 Apr 2026 was submitted and is awaiting approval.',
      },
    ]);
  });

  it('trims the text fields and reads a numeric string as the number of units', async () => {
    const patient = await createPatient(t);
    const response = await submit(patient, {
      ...validForm,
      unit: '3',
      doctorname: '  Dr. Mehta  ',
      reason: ' Surgery ',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ unit: 3, doctorname: 'Dr. Mehta', reason: 'Surgery' });
  });

  it('stores a lone UTF-16 surrogate as one U+FFFD, as if the text had travelled as UTF-8', async () => {
    const patient = await createPatient(t);
    const response = await submit(patient, {
      ...validForm,
      reason: 'Surgery \ud800 and \udc00',
      doctorname: 'Dr. \ud83d\ude00',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      reason: 'Surgery \ufffd and \ufffd',
      doctorname: 'Dr. \ud83d\ude00',
    });
    const mine = await t.app.inject({ method: 'GET', url: '/api/requests/mine', headers: patient.headers });
    expect(mine.json<{ reason: string }[]>()[0]!.reason).toBe('Surgery \ufffd and \ufffd');
  });

  it('accepts the limits: 1 unit, 10 units, and a date of today', async () => {
    const patient = await createPatient(t);
    expect((await submit(patient, { ...validForm, unit: 1 })).statusCode).toBe(201);
    expect((await submit(patient, { ...validForm, unit: 10 })).statusCode).toBe(201);
    const today = await submit(patient, { ...validForm, date: TODAY });
    expect(today.statusCode).toBe(201);
    expect(today.json()).toMatchObject({ date: TODAY });
  });

  it.each([
    ['more than 10 units', { unit: 11 }, 'unit', 'Maximum 10 units can be requested at once'],
    ['0 units', { unit: 0 }, 'unit', 'Minimum 1 unit is required'],
    ['no units', { unit: '' }, 'unit', 'Number of units is required'],
    ['a fractional number of units', { unit: 1.5 }, 'unit', 'Please enter a whole number'],
    ['units written in hexadecimal', { unit: '0x2' }, 'unit', 'Please enter a number'],
    ['units written with an exponent', { unit: '1e1' }, 'unit', 'Please enter a number'],
    ['no date', { date: '' }, 'date', 'Required date is needed'],
    ['a date in the past', { date: '2026-03-09' }, 'date', 'Date cannot be in the past'],
    ['a date that does not exist', { date: '2026-02-30' }, 'date', 'Please enter a valid date (YYYY-MM-DD)'],
    ['no doctor name', { doctorname: '   ' }, 'doctorname', 'Doctor name is required'],
    ['no hospital address', { hospitaladdress: '' }, 'hospitaladdress', 'Hospital address is required'],
    ['no reason', { reason: '' }, 'reason', 'Reason is required'],
    ['no blood group', { bloodgroup: '' }, 'bloodgroup', 'Blood group is required'],
    ['an unknown blood group', { bloodgroup: 'C+' }, 'bloodgroup', 'Please choose a valid blood group'],
  ])('refuses %s with 422 and the message', async (_case, change, field, message) => {
    const patient = await createPatient(t);
    const response = await submit(patient, { ...validForm, ...change });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ detail: message, errors: { [field]: message } });
    expect(await requestCountOf(patient.id)).toBe(0);
  });

  it('names every missing field of an empty form', async () => {
    const patient = await createPatient(t);
    const response = await submit(patient, {});
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      bloodgroup: 'Blood group is required',
      unit: 'Number of units is required',
      date: 'Required date is needed',
      doctorname: 'Doctor name is required',
      hospitaladdress: 'Hospital address is required',
      reason: 'Reason is required',
    });
  });

  it("judges 'in the past' by the blood bank's current day", async () => {
    const patient = await createPatient(t);
    t.clock.set('2026-03-21T08:00:00Z');
    const response = await submit(patient, validForm);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ date: 'Date cannot be in the past' });
  });

  it('is for patients only: 401 anonymous, 403 for donors and admins, and nothing is stored', async () => {
    const donor = await createDonor(t);
    const admin = await createAdmin(t);
    expect((await submit(undefined, validForm)).statusCode).toBe(401);
    expect((await submit(donor, validForm)).statusCode).toBe(403);
    expect((await submit(admin, validForm)).statusCode).toBe(403);
    expect(await requestCountOf(donor.id)).toBe(0);
    expect(await requestCountOf(admin.id)).toBe(0);
  });
});

describe('GET /api/requests/mine', () => {
  it('is empty for a patient without requests', async () => {
    const patient = await createPatient(t);
    const response = await listMine(patient);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it("lists only the patient's own requests, newest first", async () => {
    const patient = await createPatient(t);
    const other = await createPatient(t);
    const first = (await submit(patient, { ...validForm, reason: 'first' })).json<BloodRequest>();
    await submit(other, { ...validForm, reason: 'not mine' });
    t.clock.set('2026-03-10T13:00:00Z');
    const second = (await submit(patient, { ...validForm, reason: 'second' })).json<BloodRequest>();
    t.clock.set('2026-03-11T09:00:00Z');
    const third = (await submit(patient, { ...validForm, reason: 'third' })).json<BloodRequest>();

    const response = await listMine(patient);
    expect(response.statusCode).toBe(200);
    const list = response.json<BloodRequest[]>();
    expect(list.map((request) => [request.id, request.reason, request.created_at])).toEqual([
      [third.id, 'third', '2026-03-11T09:00:00.000Z'],
      [second.id, 'second', '2026-03-10T13:00:00.000Z'],
      [first.id, 'first', NOW],
    ]);
    expect(list.every((request) => request.status === 'pending')).toBe(true);
  });

  it('shows the rejection reason, the group issued from and the ids of the units issued to each request', async () => {
    const patient = await createPatient(t);
    const admin = await createAdmin(t);
    const decided = { decided_by: admin.id, decided_at: '2026-03-10T12:30:00.000Z' };
    const rejectedId = await insertRequest(patient.id, {
      status: 'rejected',
      rejection_reason: 'Insufficient documents',
      ...decided,
    });
    const approvedId = await insertRequest(patient.id, {
      status: 'approved',
      bloodgroup: 'A+',
      units: 2,
      issued_bloodgroup: 'O-',
      ...decided,
    });
    const otherApprovedId = await insertRequest(patient.id, {
      status: 'approved',
      bloodgroup: 'B+',
      units: 1,
      issued_bloodgroup: 'B+',
      ...decided,
    });
    const issued = { status: 'issued' as const, issued_at: decided.decided_at };
    const [firstUnit, secondUnit, otherUnit] = await insertUnits([
      unit('O-', '2026-03-30', { ...issued, request_id: approvedId }),
      unit('O-', '2026-03-31', { ...issued, request_id: approvedId }),
      unit('B+', '2026-03-30', { ...issued, request_id: otherApprovedId }),
      unit('O-', '2026-03-30'),
    ]);

    const list = (await listMine(patient)).json<BloodRequest[]>();
    expect(list).toEqual([
      expect.objectContaining({
        id: otherApprovedId,
        status: 'approved',
        issued_bloodgroup: 'B+',
        issued_unit_ids: [otherUnit],
        rejection_reason: null,
        decided_at: decided.decided_at,
      }),
      expect.objectContaining({
        id: approvedId,
        status: 'approved',
        bloodgroup: 'A+',
        unit: 2,
        issued_bloodgroup: 'O-',
        issued_unit_ids: [firstUnit, secondUnit],
        rejection_reason: null,
      }),
      expect.objectContaining({
        id: rejectedId,
        status: 'rejected',
        rejection_reason: 'Insufficient documents',
        issued_bloodgroup: null,
        issued_unit_ids: [],
      }),
    ]);
  });

  it('is for patients only: 401 anonymous, 403 for donors and admins', async () => {
    expect((await listMine(undefined)).statusCode).toBe(401);
    expect((await listMine(await createDonor(t))).statusCode).toBe(403);
    expect((await listMine(await createAdmin(t))).statusCode).toBe(403);
  });
});

describe('POST /api/requests/:id/cancel', () => {
  it('cancels the patient’s own pending request', async () => {
    const patient = await createPatient(t);
    const created = (await submit(patient, validForm)).json<BloodRequest>();
    t.clock.set('2026-03-10T15:00:00Z');

    const response = await cancel(patient, created.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...created,
      status: 'cancelled',
      decided_at: '2026-03-10T15:00:00.000Z',
    });
    expect(await statusOf(created.id)).toBe('cancelled');
    expect((await listMine(patient)).json()).toEqual([
      expect.objectContaining({ id: created.id, status: 'cancelled' }),
    ]);
    expect(await activitiesOf(patient.id)).toEqual([
      {
        kind: 'request_submitted',
        message:
          'Your request for 2 units of A+ red cells needed by 20 Mar 2026 was submitted and is awaiting approval.',
      },
      {
        kind: 'request_cancelled',
        message: 'You cancelled your request for 2 units of A+ red cells needed by 20 Mar 2026.',
      },
    ]);
  });

  it('refuses a second cancel with 409', async () => {
    const patient = await createPatient(t);
    const created = (await submit(patient, validForm)).json<BloodRequest>();
    expect((await cancel(patient, created.id)).statusCode).toBe(200);

    const again = await cancel(patient, created.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: 'Only a pending request can be cancelled.' });
    expect((await activitiesOf(patient.id)).map((activity) => activity.kind)).toEqual([
      'request_submitted',
      'request_cancelled',
    ]);
  });

  it.each(['approved', 'rejected'] as const)(
    'refuses to cancel an %s request with 409 and leaves it as it was',
    async (status) => {
      const patient = await createPatient(t);
      const requestId = await insertRequest(patient.id, { status, decided_at: NOW });
      const response = await cancel(patient, requestId);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ detail: 'Only a pending request can be cancelled.' });
      expect(await statusOf(requestId)).toBe(status);
    },
  );

  it('lets exactly one of two simultaneous cancels win', async () => {
    const patient = await createPatient(t);
    const created = (await submit(patient, validForm)).json<BloodRequest>();
    const responses = await Promise.all([cancel(patient, created.id), cancel(patient, created.id)]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect((await activitiesOf(patient.id)).map((activity) => activity.kind)).toEqual([
      'request_submitted',
      'request_cancelled',
    ]);
  });

  it('decides the race in the update itself: it changes only a pending request of that patient', async () => {
    // An approval that commits between the cancel's read and its update: the update must not win.
    const patient = await createPatient(t);
    const other = await createPatient(t);
    const requestId = await insertRequest(patient.id);
    expect(await cancelPendingRequest(t.db, requestId, other.id, NOW)).toBeUndefined();
    await t.db
      .updateTable('blood_requests')
      .set({ status: 'approved', issued_bloodgroup: 'B+', decided_at: NOW })
      .where('id', '=', requestId)
      .execute();
    expect(await cancelPendingRequest(t.db, requestId, patient.id, NOW)).toBeUndefined();
    expect(await statusOf(requestId)).toBe('approved');
  });

  it("refuses another patient's request with 403 and leaves it pending", async () => {
    const owner = await createPatient(t);
    const intruder = await createPatient(t);
    const created = (await submit(owner, validForm)).json<BloodRequest>();

    const response = await cancel(intruder, created.id);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ detail: 'You can only cancel your own requests' });
    expect(await statusOf(created.id)).toBe('pending');
    expect((await listMine(intruder)).json()).toEqual([]);
  });

  it('answers 404 for an unknown request and 422 for an id that is not a number', async () => {
    const patient = await createPatient(t);
    const unknown = await cancel(patient, 987654);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ detail: 'Request not found' });
    expect((await cancel(patient, 'abc')).statusCode).toBe(422);
    expect((await cancel(patient, '99999999999')).statusCode).toBe(422);
  });

  it('is for patients only: 401 anonymous, 403 for donors and admins, and the request stays pending', async () => {
    const patient = await createPatient(t);
    const created = (await submit(patient, validForm)).json<BloodRequest>();
    expect((await cancel(undefined, created.id)).statusCode).toBe(401);
    expect((await cancel(await createDonor(t), created.id)).statusCode).toBe(403);
    expect((await cancel(await createAdmin(t), created.id)).statusCode).toBe(403);
    expect(await statusOf(created.id)).toBe('pending');
  });
});

describe('GET /api/patient/summary', () => {
  it('is all zeros for a new patient', async () => {
    const response = await summaryOf(await createPatient(t));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ total: 0, pending: 0, approved: 0, rejected: 0, cancelled: 0 });
  });

  it("counts the patient's own requests from the database; total includes cancelled ones", async () => {
    const patient = await createPatient(t);
    const other = await createPatient(t);
    for (const status of [
      'pending',
      'pending',
      'approved',
      'rejected',
      'rejected',
      'rejected',
      'cancelled',
    ] as const) {
      await insertRequest(patient.id, { status });
    }
    await insertRequest(other.id, { status: 'approved' });
    await insertRequest(other.id, { status: 'pending' });

    expect((await summaryOf(patient)).json()).toEqual({ total: 7, pending: 2, approved: 1, rejected: 3, cancelled: 1 });
    expect((await summaryOf(other)).json()).toEqual({ total: 2, pending: 1, approved: 1, rejected: 0, cancelled: 0 });
  });

  it('follows submissions and cancellations', async () => {
    const patient = await createPatient(t);
    const first = (await submit(patient, validForm)).json<BloodRequest>();
    await submit(patient, validForm);
    expect((await summaryOf(patient)).json()).toEqual({ total: 2, pending: 2, approved: 0, rejected: 0, cancelled: 0 });
    await cancel(patient, first.id);
    expect((await summaryOf(patient)).json()).toEqual({ total: 2, pending: 1, approved: 0, rejected: 0, cancelled: 1 });
  });

  it('is for patients only: 401 anonymous, 403 for donors and admins', async () => {
    expect((await summaryOf(undefined)).statusCode).toBe(401);
    expect((await summaryOf(await createDonor(t))).statusCode).toBe(403);
    expect((await summaryOf(await createAdmin(t))).statusCode).toBe(403);
  });
});

describe('GET /api/stock', () => {
  const noComponents = { whole_blood: 0, red_cells: 0, plasma: 0, platelets: 0 };
  const emptyStock = (['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'] as const).map((bloodgroup) => ({
    bloodgroup,
    units: 0,
    components: noComponents,
  }));
  /** Red-cell units only (the fixture's default component). */
  const stockWith = (units: Partial<Record<BloodGroup, number>>) =>
    emptyStock.map((entry) => ({
      ...entry,
      units: units[entry.bloodgroup] ?? 0,
      components: { ...noComponents, red_cells: units[entry.bloodgroup] ?? 0 },
    }));

  it('lists all eight groups in order, with 0 where there are no units', async () => {
    await t.db.deleteFrom('blood_units').execute();
    const response = await stockAs(await createPatient(t));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(emptyStock);
  });

  it('counts available units that have not expired today; expired, issued and discarded units never count', async () => {
    await t.db.deleteFrom('blood_units').execute();
    const patient = await createPatient(t);
    const requestId = await insertRequest(patient.id, {
      status: 'approved',
      issued_bloodgroup: 'A+',
      decided_at: NOW,
    });
    await insertUnits([
      unit('A+', '2026-04-20'),
      unit('A+', TODAY), // expires today: still usable today
      unit('A+', '2026-03-09'), // expired yesterday
      unit('A+', '2026-04-20', { status: 'issued', request_id: requestId, issued_at: NOW }),
      unit('A+', '2026-04-20', { status: 'discarded', discarded_at: NOW, discard_reason: 'Damaged bag' }),
      unit('O-', '2026-03-11'),
      unit('O-', '2026-03-11'),
      unit('O-', '2026-03-11'),
      unit('AB-', '2026-02-01', { status: 'discarded', discarded_at: NOW, discard_reason: 'Expired' }),
      unit('B-', '2026-03-12'),
    ]);

    expect((await stockAs(patient)).json()).toEqual(stockWith({ 'A+': 2, 'O-': 3, 'B-': 1 }));

    // The next day the unit that expired on the 10th no longer counts; two days on, the O- units neither.
    t.clock.set('2026-03-11T00:30:00Z');
    expect((await stockAs(patient)).json()).toEqual(stockWith({ 'A+': 1, 'O-': 3, 'B-': 1 }));
    t.clock.set('2026-03-12T10:00:00Z');
    expect((await stockAs(patient)).json()).toEqual(stockWith({ 'A+': 1, 'B-': 1 }));
  });

  it('is open to any signed-in user and closed to anonymous callers', async () => {
    for (const user of [await createPatient(t), await createDonor(t), await createAdmin(t)]) {
      const response = await stockAs(user);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toHaveLength(8);
    }
    expect((await stockAs(undefined)).statusCode).toBe(401);
  });
});

describe('request activity messages (used by the admin module for decisions)', () => {
  const request = { patient_id: 1, bloodgroup: 'A+' as const, component: 'red_cells' as const, units: 3, required_date: '2026-09-05' };

  it('say what happened to which request', () => {
    expect(requestActivityMessage(request, { type: 'approved', issuedBloodgroup: 'A+' })).toBe(
      'Your request for 3 units of A+ red cells needed by 5 Sep 2026 was approved.',
    );
    expect(requestActivityMessage(request, { type: 'approved', issuedBloodgroup: 'O-' })).toBe(
      'Your request for 3 units of A+ red cells needed by 5 Sep 2026 was approved with compatible O- units.',
    );
    expect(requestActivityMessage(request, { type: 'rejected', reason: ' No matching stock ' })).toBe(
      'Your request for 3 units of A+ red cells needed by 5 Sep 2026 was rejected. Reason: No matching stock.',
    );
    expect(requestActivityMessage(request, { type: 'rejected', reason: null })).toBe(
      'Your request for 3 units of A+ red cells needed by 5 Sep 2026 was rejected.',
    );
  });
});
