import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient, type TestUser } from '../../../test/factories';
import { activitiesOf, auditEntries, insertDonation, insertRequest, insertUnits } from '../../../test/admin-fixtures';

const NOW = '2026-03-10T12:00:00.000Z';

let t: TestApp;
let admin: TestUser;
let secondAdmin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  admin = await createAdmin(t);
  secondAdmin = await createAdmin(t);
});
afterAll(() => t.close());

// Every test starts from an empty inventory and no decisions; people accumulate, which no test counts.
beforeEach(async () => {
  t.clock.set(NOW);
  await t.db.deleteFrom('blood_units').execute();
  await t.db.deleteFrom('game_rewards').execute();
  await t.db.deleteFrom('earned_achievements').execute();
  await t.db.deleteFrom('game_profiles').execute();
  await t.db.deleteFrom('blood_requests').execute();
  await t.db.deleteFrom('donations').execute();
  await t.db.deleteFrom('activities').execute();
  await t.db.deleteFrom('audit_log').execute();
});

const post = (url: string, as: TestUser = admin, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: as.headers, ...(payload ? { payload } : {}) });
const approveRequest = (id: number, payload?: object, as: TestUser = admin) =>
  post(`/api/admin/requests/${id}/approve`, as, payload);

async function stockOf(bloodgroup: string): Promise<number> {
  const response = await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: admin.headers });
  return (response.json().inventory as { bloodgroup: string; units: number }[]).find((row) => row.bloodgroup === bloodgroup)!
    .units;
}

async function unitsById(ids: number[]) {
  return t.db.selectFrom('blood_units').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

// Collection, test results and their races: modules/donations/donation-lifecycle.test.ts.

describe('POST /api/admin/donations/:id/reject', () => {
  it('rejects with a reason the donor sees, adds no units and keeps the donation in the history', async () => {
    const donor = await createDonor(t);
    const donation = await insertDonation(t, donor.id, { date: '2026-03-12' });

    const response = await post(`/api/admin/donations/${donation.id}/reject`, admin, { reason: '  Haemoglobin too low  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: donation.id,
      status: 'rejected',
      rejection_reason: 'Haemoglobin too low',
      unit_ids: [],
    });
    expect(await t.db.selectFrom('blood_units').select('id').execute()).toEqual([]);
    expect(await t.db.selectFrom('donations').select('status').where('id', '=', donation.id).executeTakeFirst()).toEqual({
      status: 'rejected',
    });
    expect(await activitiesOf(t, donor.id)).toEqual([
      { kind: 'donation_rejected', message: 'Your donation of 12 Mar was not approved: Haemoglobin too low.' },
    ]);

    const mine = await t.app.inject({ method: 'GET', url: '/api/donations/mine', headers: donor.headers });
    expect(mine.json()[0]).toMatchObject({ id: donation.id, status: 'rejected', rejection_reason: 'Haemoglobin too low' });

    const [audit] = await auditEntries(t, 'donation.rejected');
    expect(audit?.detail).toEqual({ before: { status: 'pending' }, after: { status: 'rejected', reason: 'Haemoglobin too low' } });
  });

  it('rejects without a body, the reason then being empty', async () => {
    const donor = await createDonor(t);
    const donation = await insertDonation(t, donor.id);
    const response = await post(`/api/admin/donations/${donation.id}/reject`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'rejected', rejection_reason: null });
    expect((await activitiesOf(t, donor.id))[0]?.message).toBe('Your donation of 12 Mar was not approved.');
  });

  it('refuses a reason longer than 500 characters', async () => {
    const donor = await createDonor(t);
    const donation = await insertDonation(t, donor.id);
    const response = await post(`/api/admin/donations/${donation.id}/reject`, admin, { reason: 'x'.repeat(501) });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ reason: 'Must be at most 500 characters' });
  });
});

describe('POST /api/admin/requests/:id/approve', () => {
  it('issues units first-expiring-first and lowers the stock by the units requested', async () => {
    const patient = await createPatient(t, { first_name: 'Ravi', last_name: 'Shah' });
    const later = await insertUnits(t, { bloodgroup: 'A+', count: 2, expires_on: '2026-04-01' });
    const soonest = await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-03-11' });
    const middle = await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-03-20' });
    await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-03-09' }); // expired yesterday: never issued
    const request = await insertRequest(t, patient.id, { bloodgroup: 'A+', units: 3 });
    expect(await stockOf('A+')).toBe(4);

    const response = await approveRequest(request.id);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      id: request.id,
      status: 'approved',
      bloodgroup: 'A+',
      issued_bloodgroup: 'A+',
      unit: 3,
      patient_id: patient.id,
      patient_name: 'Ravi Shah',
      patient_username: patient.username,
      decided_at: NOW,
    });
    expect(body.issued_unit_ids).toEqual([...soonest, ...middle, later[0]]);
    expect(await stockOf('A+')).toBe(1);

    const issued = await unitsById(body.issued_unit_ids);
    expect(issued.every((unit) => unit.status === 'issued' && unit.request_id === request.id && unit.issued_at === NOW)).toBe(true);
    expect(await activitiesOf(t, patient.id)).toEqual([
      { kind: 'request_approved', message: 'Your request for 3 units of A+ red cells needed by 20 Mar 2026 was approved.' },
    ]);
    const [audit] = await auditEntries(t, 'request.approved');
    expect(audit).toMatchObject({ actor: admin.username, entity: 'request', entity_id: request.id });
    expect(audit?.detail).toEqual({
      before: { status: 'pending' },
      after: { status: 'approved', issued_bloodgroup: 'A+', component: 'red_cells', unit_ids: body.issued_unit_ids },
    });
  });

  it('approves a request for exactly the available stock', async () => {
    const patient = await createPatient(t);
    await insertUnits(t, { bloodgroup: 'AB-', count: 4, expires_on: '2026-04-01' });
    const request = await insertRequest(t, patient.id, { bloodgroup: 'AB-', units: 4 });
    const response = await approveRequest(request.id);
    expect(response.statusCode).toBe(200);
    expect(response.json().issued_unit_ids).toHaveLength(4);
    expect(await stockOf('AB-')).toBe(0);
  });

  it('refuses with the stock and the compatible groups that can cover the request, changing nothing', async () => {
    const patient = await createPatient(t);
    await insertUnits(t, { bloodgroup: 'A+', count: 2, expires_on: '2026-04-01' });
    await insertUnits(t, { bloodgroup: 'A+', count: 3, expires_on: '2026-03-09' }); // expired: not stock
    await insertUnits(t, { bloodgroup: 'O-', count: 3, expires_on: '2026-04-01' });
    await insertUnits(t, { bloodgroup: 'A-', count: 5, expires_on: '2026-04-01' });
    await insertUnits(t, { bloodgroup: 'O+', count: 1, expires_on: '2026-04-01' }); // compatible, but too few
    await insertUnits(t, { bloodgroup: 'B+', count: 9, expires_on: '2026-04-01' }); // plenty, but incompatible
    const request = await insertRequest(t, patient.id, { bloodgroup: 'A+', units: 3 });

    const response = await approveRequest(request.id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      detail: 'Stock does not have enough blood to approve this request. Only 2 units available.',
      code: 'insufficient_stock',
      available: 2,
      compatible: [
        { bloodgroup: 'A-', units: 5 },
        { bloodgroup: 'O-', units: 3 },
      ],
    });
    const unchanged = await t.db.selectFrom('blood_requests').selectAll().where('id', '=', request.id).executeTakeFirstOrThrow();
    expect(unchanged).toMatchObject({ status: 'pending', issued_bloodgroup: null, decided_at: null });
    expect(await stockOf('A+')).toBe(2);
    expect(await t.db.selectFrom('blood_units').select('id').where('status', '=', 'issued').execute()).toEqual([]);
    expect(await auditEntries(t, 'request.approved')).toEqual([]);

    // The admin then approves from a compatible group offered in the refusal.
    const fromCompatible = await approveRequest(request.id, { bloodgroup: 'O-' });
    expect(fromCompatible.statusCode).toBe(200);
    expect(fromCompatible.json()).toMatchObject({ status: 'approved', bloodgroup: 'A+', issued_bloodgroup: 'O-' });
    expect(fromCompatible.json().issued_unit_ids).toHaveLength(3);
    expect(await stockOf('O-')).toBe(0);
    expect(await stockOf('A+')).toBe(2);
    expect((await activitiesOf(t, patient.id))[0]?.message).toBe(
      'Your request for 3 units of A+ red cells needed by 20 Mar 2026 was approved with compatible O- units.',
    );
  });

  it('lists no compatible group when none can cover the request', async () => {
    const patient = await createPatient(t);
    const request = await insertRequest(t, patient.id, { bloodgroup: 'O-', units: 2 });
    await insertUnits(t, { bloodgroup: 'A+', count: 9, expires_on: '2026-04-01' });
    const response = await approveRequest(request.id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      detail: 'Stock does not have enough blood to approve this request. Only 0 units available.',
      code: 'insufficient_stock',
      available: 0,
      compatible: [],
    });
  });

  it('counts the chosen compatible group when it is short too', async () => {
    const patient = await createPatient(t);
    const request = await insertRequest(t, patient.id, { bloodgroup: 'AB+', units: 4 });
    await insertUnits(t, { bloodgroup: 'AB+', count: 1, expires_on: '2026-04-01' });
    await insertUnits(t, { bloodgroup: 'O+', count: 2, expires_on: '2026-04-01' });
    await insertUnits(t, { bloodgroup: 'B+', count: 6, expires_on: '2026-04-01' });
    const response = await approveRequest(request.id, { bloodgroup: 'O+' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      detail: 'Stock does not have enough blood to approve this request. Only 2 units available.',
      available: 2,
      compatible: [{ bloodgroup: 'B+', units: 6 }],
    });
  });

  it('refuses an incompatible group with 422 and changes nothing', async () => {
    const patient = await createPatient(t);
    await insertUnits(t, { bloodgroup: 'A+', count: 5, expires_on: '2026-04-01' });
    const request = await insertRequest(t, patient.id, { bloodgroup: 'O-', units: 1 });
    const response = await approveRequest(request.id, { bloodgroup: 'A+' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: 'A+ blood cannot be given to a patient who needs O-.',
      code: 'validation_failed',
      errors: { bloodgroup: 'A+ blood cannot be given to a patient who needs O-.' },
    });
    expect(await stockOf('A+')).toBe(5);
    const invalid = await approveRequest(request.id, { bloodgroup: 'C+' });
    expect(invalid.statusCode).toBe(422);
  });

  it('answers 409 when the request was already decided or cancelled', async () => {
    const patient = await createPatient(t);
    await insertUnits(t, { bloodgroup: 'A+', count: 5, expires_on: '2026-04-01' });
    const request = await insertRequest(t, patient.id, { bloodgroup: 'A+', units: 1 });
    expect((await approveRequest(request.id)).statusCode).toBe(200);
    const again = await approveRequest(request.id, undefined, secondAdmin);
    expect(again.statusCode).toBe(409);
    // It says what the other admin did.
    expect(again.json()).toEqual({
      detail: 'This request has already been decided: it was approved and its units issued.',
      code: 'already_decided',
    });
    const reject = await post(`/api/admin/requests/${request.id}/reject`);
    expect(reject.statusCode).toBe(409);
    expect(await stockOf('A+')).toBe(4);

    const declined = await insertRequest(t, patient.id, { bloodgroup: 'A+', units: 1 });
    expect((await post(`/api/admin/requests/${declined.id}/reject`)).statusCode).toBe(200);
    expect((await approveRequest(declined.id)).json().detail).toBe('This request has already been decided: it was rejected.');

    const cancelled = await insertRequest(t, patient.id, { status: 'cancelled' });
    const approveCancelled = await approveRequest(cancelled.id);
    expect(approveCancelled.statusCode).toBe(409);
    expect(approveCancelled.json().detail).toBe('This request was cancelled by the patient.');
  });

  it('answers 404 for an unknown request', async () => {
    const response = await approveRequest(999999);
    expect(response.statusCode).toBe(404);
    expect(response.json().detail).toBe('Request not found');
  });

  it("tells each donor whose unit was issued where it went (the blood journey)", async () => {
    const [asha, ben] = [await createDonor(t, { bloodgroup: 'B+' }), await createDonor(t, { bloodgroup: 'B+' })];
    const patient = await createPatient(t);
    const ashaDonation = await insertDonation(t, asha.id, { bloodgroup: 'B+', units: 2, date: '2026-03-02', status: 'released' });
    const benDonation = await insertDonation(t, ben.id, { bloodgroup: 'B+', units: 1, date: '2026-02-14', status: 'released' });
    await insertUnits(t, { bloodgroup: 'B+', count: 2, expires_on: '2026-04-13', donation_id: ashaDonation.id });
    await insertUnits(t, { bloodgroup: 'B+', count: 1, expires_on: '2026-03-28', donation_id: benDonation.id });
    await insertUnits(t, { bloodgroup: 'B+', count: 1, expires_on: '2026-03-11' }); // received by hand: no donor
    const request = await insertRequest(t, patient.id, { bloodgroup: 'AB+', units: 4, hospital_address: 'Ruby Hall Clinic, Pune' });

    const response = await approveRequest(request.id, { bloodgroup: 'B+' });
    expect(response.statusCode).toBe(200);
    expect(await activitiesOf(t, asha.id)).toEqual([
      { kind: 'donation_issued', message: 'Your donation of 2 Mar gave red cells to a patient.' },
    ]);
    expect(await activitiesOf(t, ben.id)).toEqual([
      { kind: 'donation_issued', message: 'Your donation of 14 Feb gave red cells to a patient.' },
    ]);
    const summary = await t.app.inject({ method: 'GET', url: '/api/donor/summary', headers: asha.headers });
    expect(summary.json().activities.map((activity: { message: string }) => activity.message)).toContain(
      'Your donation of 2 Mar gave red cells to a patient.',
    );
    // The patient's free text (the hospital's address) never reaches a donor.
    expect(summary.body).not.toContain('Ruby Hall');
  });
});

describe('expiry at the day boundary', () => {
  it('issues a unit on its expiry day and never the day after', async () => {
    const patient = await createPatient(t);
    const [unit] = await insertUnits(t, { bloodgroup: 'B-', count: 1, expires_on: '2026-03-10' });
    const first = await insertRequest(t, patient.id, { bloodgroup: 'B-', units: 1 });
    const second = await insertRequest(t, patient.id, { bloodgroup: 'B-', units: 1 });

    t.clock.set('2026-03-10T23:59:59.999Z');
    expect(await stockOf('B-')).toBe(1);
    t.clock.set('2026-03-11T00:00:00.000Z');
    expect(await stockOf('B-')).toBe(0);
    const refused = await approveRequest(first.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().available).toBe(0);

    t.clock.set('2026-03-10T23:59:59.000Z');
    const approved = await approveRequest(second.id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().issued_unit_ids).toEqual([unit]);
  });

  it("follows the blood bank's time zone, not UTC", async () => {
    const kolkata = await createTestApp({ now: '2026-03-10T12:00:00Z', env: { TIMEZONE: 'Asia/Kolkata' } });
    try {
      const kolkataAdmin = await createAdmin(kolkata);
      const patient = await createPatient(kolkata);
      await insertUnits(kolkata, { bloodgroup: 'A+', count: 1, expires_on: '2026-03-10' });
      const request = await insertRequest(kolkata, patient.id, { bloodgroup: 'A+', units: 1 });
      // 19:00 UTC is already 00:30 on the 11th in Kolkata: the unit expired there.
      kolkata.clock.set('2026-03-10T19:00:00Z');
      const response = await kolkata.app.inject({
        method: 'POST',
        url: `/api/admin/requests/${request.id}/approve`,
        headers: kolkataAdmin.headers,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().available).toBe(0);
    } finally {
      await kolkata.close();
    }
  });
});

describe('POST /api/admin/requests/:id/reject', () => {
  it('rejects with a reason the patient sees, issuing nothing', async () => {
    const patient = await createPatient(t);
    await insertUnits(t, { bloodgroup: 'A+', count: 2, expires_on: '2026-04-01' });
    const request = await insertRequest(t, patient.id, { bloodgroup: 'A+', units: 1 });
    const response = await post(`/api/admin/requests/${request.id}/reject`, admin, { reason: 'Duplicate request' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: request.id,
      status: 'rejected',
      rejection_reason: 'Duplicate request',
      issued_bloodgroup: null,
      issued_unit_ids: [],
    });
    expect(await stockOf('A+')).toBe(2);
    expect(await activitiesOf(t, patient.id)).toEqual([
      {
        kind: 'request_rejected',
        message: 'Your request for 1 unit of A+ red cells needed by 20 Mar 2026 was rejected. Reason: Duplicate request.',
      },
    ]);
    const mine = await t.app.inject({ method: 'GET', url: '/api/requests/mine', headers: patient.headers });
    expect(mine.json()[0]).toMatchObject({ id: request.id, status: 'rejected', rejection_reason: 'Duplicate request' });
    const [audit] = await auditEntries(t, 'request.rejected');
    expect(audit?.detail).toEqual({ before: { status: 'pending' }, after: { status: 'rejected', reason: 'Duplicate request' } });
  });
});

describe('parallel approvals competing for fewer units', () => {
  it('issues every unit at most once and exactly as many requests succeed as there were units', async () => {
    const UNITS = 7;
    const REQUESTS = 24;
    const patient = await createPatient(t);
    const unitIds = await insertUnits(t, { bloodgroup: 'O-', count: UNITS, expires_on: '2026-04-01' });
    const requests = [];
    for (let index = 0; index < REQUESTS; index += 1) {
      requests.push(await insertRequest(t, patient.id, { bloodgroup: 'O-', units: 1 }));
    }

    const responses = await Promise.all(
      requests.map((request, index) => approveRequest(request.id, undefined, index % 2 ? admin : secondAdmin)),
    );
    const succeeded = responses.filter((response) => response.statusCode === 200);
    const refused = responses.filter((response) => response.statusCode === 409);
    expect(succeeded).toHaveLength(UNITS);
    expect(refused).toHaveLength(REQUESTS - UNITS);
    for (const response of refused) expect(response.json().code).toBe('insufficient_stock');

    const issuedIds = succeeded.flatMap((response) => response.json().issued_unit_ids as number[]);
    expect(new Set(issuedIds).size).toBe(UNITS);
    expect([...issuedIds].sort((a, b) => a - b)).toEqual(unitIds);
    const units = await unitsById(unitIds);
    expect(new Set(units.map((unit) => unit.request_id)).size).toBe(UNITS);
    expect(units.every((unit) => unit.status === 'issued')).toBe(true);
    expect(await stockOf('O-')).toBe(0);
    const approvedRows = await t.db.selectFrom('blood_requests').select('id').where('status', '=', 'approved').execute();
    expect(approvedRows).toHaveLength(UNITS);
  });

  it('never issues more than the stock when multi-unit requests compete', async () => {
    const patient = await createPatient(t);
    await insertUnits(t, { bloodgroup: 'A-', count: 10, expires_on: '2026-04-01' });
    const requests = [];
    for (let index = 0; index < 20; index += 1) {
      requests.push(await insertRequest(t, patient.id, { bloodgroup: 'A-', units: 3 }));
    }
    const responses = await Promise.all(requests.map((request) => approveRequest(request.id)));
    const succeeded = responses.filter((response) => response.statusCode === 200);
    // 10 units cover three requests of 3 (one unit is left over).
    expect(succeeded).toHaveLength(3);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(17);
    const issued = await t.db.selectFrom('blood_units').select(['id', 'request_id']).where('status', '=', 'issued').execute();
    expect(issued).toHaveLength(9);
    expect(await stockOf('A-')).toBe(1);
  });

  it('approves one request once when many admins approve it at the same moment', async () => {
    const patient = await createPatient(t);
    await insertUnits(t, { bloodgroup: 'B+', count: 10, expires_on: '2026-04-01' });
    const request = await insertRequest(t, patient.id, { bloodgroup: 'B+', units: 2 });
    const responses = await Promise.all(Array.from({ length: 20 }, () => approveRequest(request.id)));
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(19);
    expect(await stockOf('B+')).toBe(8);
  });
});

describe('GET /api/admin/donations and /api/admin/requests', () => {
  it('lists donations pending first, then newest, with donor names, unit ids and paging', async () => {
    const donor = await createDonor(t, { first_name: 'Asha', last_name: 'Kumar' });
    const other = await createDonor(t, { first_name: 'Ben', last_name: 'Roy' });
    const oldApproved = await insertDonation(t, donor.id, { status: 'released', created_at: '2026-01-01T00:00:00.000Z' });
    const newRejected = await insertDonation(t, donor.id, { status: 'rejected', created_at: '2026-03-01T00:00:00.000Z' });
    const oldPending = await insertDonation(t, other.id, { created_at: '2026-02-01T00:00:00.000Z', disease: 'Diabetes' });
    const [unitId] = await insertUnits(t, { bloodgroup: 'O+', expires_on: '2026-04-01', donation_id: oldApproved.id });

    const response = await t.app.inject({ method: 'GET', url: '/api/admin/donations', headers: admin.headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    expect(body.items.map((item: { id: number }) => item.id)).toEqual([oldPending.id, newRejected.id, oldApproved.id]);
    expect(body.items[0]).toMatchObject({ donor_name: 'Ben Roy', donor_id: other.id, disease: 'Diabetes', status: 'pending' });
    expect(body.items[2]).toMatchObject({ donor_name: 'Asha Kumar', unit_ids: [unitId] });

    const pendingOnly = await t.app.inject({ method: 'GET', url: '/api/admin/donations?status=pending', headers: admin.headers });
    expect(pendingOnly.json()).toMatchObject({ total: 1, items: [{ id: oldPending.id }] });
    const page2 = await t.app.inject({ method: 'GET', url: '/api/admin/donations?page=2&pageSize=2', headers: admin.headers });
    expect(page2.json()).toMatchObject({ total: 3, page: 2, pageSize: 2, items: [{ id: oldApproved.id }] });
    const ofDonor = await t.app.inject({ method: 'GET', url: `/api/admin/donations?donor_id=${donor.id}`, headers: admin.headers });
    expect(ofDonor.json().total).toBe(2);
    const badStatus = await t.app.inject({ method: 'GET', url: '/api/admin/donations?status=done', headers: admin.headers });
    expect(badStatus.statusCode).toBe(422);
  });

  it('lists requests pending first, then newest, with patient names and issued units', async () => {
    const patient = await createPatient(t, { first_name: 'Ravi', last_name: 'Shah' });
    const first = await insertRequest(t, patient.id, { created_at: '2026-03-01T00:00:00.000Z' });
    const second = await insertRequest(t, patient.id, { created_at: '2026-03-02T00:00:00.000Z', status: 'cancelled' });
    const third = await insertRequest(t, patient.id, { created_at: '2026-03-03T00:00:00.000Z' });
    await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-04-01' });
    const approved = await approveRequest(first.id);
    expect(approved.statusCode).toBe(200);

    const response = await t.app.inject({ method: 'GET', url: '/api/admin/requests', headers: admin.headers });
    const body = response.json();
    expect(body.total).toBe(3);
    expect(body.items.map((item: { id: number }) => item.id)).toEqual([third.id, second.id, first.id]);
    expect(body.items[2]).toMatchObject({
      patient_name: 'Ravi Shah',
      patient_username: patient.username,
      status: 'approved',
      issued_unit_ids: approved.json().issued_unit_ids,
      hospitaladdress: 'City Hospital, Pune',
    });
    const approvedOnly = await t.app.inject({ method: 'GET', url: '/api/admin/requests?status=approved', headers: admin.headers });
    expect(approvedOnly.json()).toMatchObject({ total: 1, items: [{ id: first.id }] });
  });
});
