import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createPatient, type TestUser } from '../../../test/factories';
import { auditEntries, insertRequest, insertUnits } from '../../../test/admin-fixtures';

const NOW = '2026-03-10T12:00:00.000Z';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  admin = await createAdmin(t);
});
afterAll(() => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.db.deleteFrom('blood_units').execute();
  await t.db.deleteFrom('blood_requests').execute();
  await t.db.deleteFrom('audit_log').execute();
});

const receive = (payload: object) => t.app.inject({ method: 'POST', url: '/api/admin/units', headers: admin.headers, payload });
const discard = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/admin/units/discard', headers: admin.headers, payload });
const listUnits = (query = '') => t.app.inject({ method: 'GET', url: `/api/admin/units${query}`, headers: admin.headers });
const stock = async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/stock', headers: admin.headers });
  return Object.fromEntries((response.json() as { bloodgroup: string; units: number }[]).map((row) => [row.bloodgroup, row.units]));
};
const statusOf = async (ids: number[]) =>
  (await t.db.selectFrom('blood_units').select(['id', 'status']).where('id', 'in', ids).orderBy('id').execute()).map(
    (row) => row.status,
  );

describe('POST /api/admin/units (receive)', () => {
  it('adds one available manual unit per bag, expiring 42 days after collection, and audits it', async () => {
    const response = await receive({ bloodgroup: 'AB-', count: 3, collected_on: '2026-03-08' });
    expect(response.statusCode).toBe(201);
    const { units } = response.json();
    expect(units).toHaveLength(3);
    expect(units[0]).toEqual({
      id: expect.any(Number),
      bloodgroup: 'AB-',
      component: 'red_cells',
      parent_unit_id: null,
      source: 'manual',
      donation_id: null,
      collected_on: '2026-03-08',
      expires_on: '2026-04-19',
      status: 'available',
      hold_reason: null,
      expired: false,
      request_id: null,
      issued_at: null,
      discarded_at: null,
      discard_reason: null,
      created_at: NOW,
    });
    expect((await stock())['AB-']).toBe(3);

    const [audit] = await auditEntries(t, 'units.received');
    expect(audit).toMatchObject({ actor_id: admin.id, actor: admin.username, entity: 'blood_unit', at: NOW });
    expect(audit?.detail).toEqual({
      after: {
        bloodgroup: 'AB-',
        component: 'red_cells',
        count: 3,
        collected_on: '2026-03-08',
        expires_on: '2026-04-19',
        unit_ids: units.map((unit: { id: number }) => unit.id),
      },
    });
  });

  it('refuses invalid input with field messages', async () => {
    const response = await receive({ bloodgroup: 'Z', count: 0, collected_on: '2026-03-11' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      bloodgroup: 'Please choose a valid blood group',
      count: 'Minimum 1 unit is required',
      collected_on: 'Collection date cannot be in the future',
    });
    expect((await receive({ bloodgroup: 'A+', count: 101, collected_on: '2026-03-10' })).json().errors).toEqual({
      count: 'At most 100 units can be received at once',
    });
    expect((await receive({ bloodgroup: 'A+', count: 1, collected_on: '2026-02-30' })).json().errors).toEqual({
      collected_on: 'Please enter a valid date (YYYY-MM-DD)',
    });
  });

  it('refuses units that would already be expired, and accepts ones that expire today', async () => {
    const expired = await receive({ bloodgroup: 'A+', count: 1, collected_on: '2026-01-26' });
    expect(expired.statusCode).toBe(422);
    expect(expired.json().errors).toEqual({
      collected_on: 'Units collected on this date expired on 2026-03-09; they cannot be received.',
    });
    const lastDay = await receive({ bloodgroup: 'A+', count: 1, collected_on: '2026-01-27' });
    expect(lastDay.statusCode).toBe(201);
    expect(lastDay.json().units[0].expires_on).toBe('2026-03-10');
    expect(await auditEntries(t, 'units.received')).toHaveLength(1);
  });
});

describe('GET /api/admin/units', () => {
  it('lists units by group and status: available (usable), expired, issued, discarded', async () => {
    const soon = await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-03-12' });
    const later = await insertUnits(t, { bloodgroup: 'A+', count: 2, expires_on: '2026-04-01' });
    const expired = await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-03-09' });
    const discarded = await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-04-01', status: 'discarded' });
    const other = await insertUnits(t, { bloodgroup: 'O-', count: 1, expires_on: '2026-03-11' });
    const patient = await createPatient(t);
    const request = await insertRequest(t, patient.id, { bloodgroup: 'A+', units: 1 });
    const approved = await t.app.inject({ method: 'POST', url: `/api/admin/requests/${request.id}/approve`, headers: admin.headers });
    expect(approved.json().issued_unit_ids).toEqual(soon);

    const ids = async (query: string) => (await listUnits(query)).json().items.map((unit: { id: number }) => unit.id);
    // No filter: everything, first-expiring-first.
    expect(await ids('')).toEqual([...expired, ...other, ...soon, ...later, ...discarded]);
    expect(await ids('?bloodgroup=A%2B&status=available')).toEqual(later);
    expect(await ids('?status=available')).toEqual([...other, ...later]);
    expect(await ids('?bloodgroup=A%2B&status=expired')).toEqual(expired);
    expect(await ids('?status=issued')).toEqual(soon);
    expect(await ids('?status=discarded')).toEqual(discarded);

    const expiredUnit = (await listUnits('?status=expired')).json().items[0];
    expect(expiredUnit).toMatchObject({ status: 'available', expired: true, expires_on: '2026-03-09' });
    const issuedUnit = (await listUnits('?status=issued')).json().items[0];
    expect(issuedUnit).toMatchObject({ status: 'issued', request_id: request.id, issued_at: NOW, expired: false });

    const page = (await listUnits('?pageSize=2&page=3')).json();
    expect(page).toMatchObject({ total: 6, page: 3, pageSize: 2 });
    expect(page.items.map((unit: { id: number }) => unit.id)).toEqual([later[1], ...discarded]);
    expect((await listUnits('?status=lost')).statusCode).toBe(422);
  });

  it('moves a unit from available to expired at midnight of its expiry day', async () => {
    const [unit] = await insertUnits(t, { bloodgroup: 'B+', count: 1, expires_on: '2026-03-10' });
    t.clock.set('2026-03-10T23:59:59.999Z');
    expect((await listUnits('?status=available')).json().items.map((row: { id: number }) => row.id)).toEqual([unit]);
    expect((await stock())['B+']).toBe(1);
    t.clock.set('2026-03-11T00:00:00.000Z');
    expect((await listUnits('?status=available')).json().total).toBe(0);
    expect((await listUnits('?status=expired')).json().items.map((row: { id: number }) => row.id)).toEqual([unit]);
    expect((await stock())['B+']).toBe(0);
  });
});

describe('POST /api/admin/units/discard', () => {
  it('discards chosen units with an optional reason', async () => {
    const ids = await insertUnits(t, { bloodgroup: 'A+', count: 3, expires_on: '2026-04-01' });
    const response = await discard({ unit_ids: [ids[2], ids[0], ids[0]], reason: 'Bag damaged' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ discarded_unit_ids: [ids[0], ids[2]] });
    expect(await statusOf(ids)).toEqual(['discarded', 'available', 'discarded']);
    const row = await t.db.selectFrom('blood_units').selectAll().where('id', '=', ids[0]!).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ discard_reason: 'Bag damaged', discarded_at: NOW });
    expect((await stock())['A+']).toBe(1);

    const [audit] = await auditEntries(t, 'units.discarded');
    expect(audit).toMatchObject({ actor: admin.username, entity: 'blood_unit' });
    expect(audit?.detail).toEqual({
      before: { status: 'available or quarantined' },
      after: { status: 'discarded', mode: 'selected', reason: 'Bag damaged', unit_ids: [ids[0], ids[2]] },
    });
  });

  it('discards all or nothing: a chosen unit that is not available refuses the whole discard', async () => {
    const ids = await insertUnits(t, { bloodgroup: 'A+', count: 2, expires_on: '2026-04-01' });
    expect((await discard({ unit_ids: [ids[0]] })).statusCode).toBe(200);
    const response = await discard({ unit_ids: [ids[0], ids[1]] });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      detail: `Unit ${ids[0]} cannot be discarded: only units in stock or in testing can.`,
      code: 'units_not_available',
      unit_ids: [ids[0]],
    });
    expect(await statusOf(ids)).toEqual(['discarded', 'available']);

    const unknown = await discard({ unit_ids: [ids[1], 999999] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe('Blood unit 999999 not found');
    expect(await statusOf(ids)).toEqual(['discarded', 'available']);
    expect(await auditEntries(t, 'units.discarded')).toHaveLength(1);
  });

  it('discards a count of a group first-expiring-first, with the reason required', async () => {
    const later = await insertUnits(t, { bloodgroup: 'O+', count: 2, expires_on: '2026-04-01' });
    const soon = await insertUnits(t, { bloodgroup: 'O+', count: 1, expires_on: '2026-03-15' });
    const expired = await insertUnits(t, { bloodgroup: 'O+', count: 1, expires_on: '2026-03-01' });

    const missingReason = await discard({ bloodgroup: 'O+', count: 2 });
    expect(missingReason.statusCode).toBe(422);
    expect(missingReason.json().detail).toBe('Send unit_ids; or bloodgroup, count and reason; or expired: true');

    const response = await discard({ bloodgroup: 'O+', count: 2, reason: 'Fridge failure' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ discarded_unit_ids: [...soon, later[0]] });
    expect(await statusOf([...later, ...soon, ...expired])).toEqual(['discarded', 'available', 'discarded', 'available']);
    const [audit] = await auditEntries(t, 'units.discarded');
    expect(audit?.detail).toMatchObject({ after: { mode: 'counted', bloodgroup: 'O+', reason: 'Fridge failure' } });

    const tooMany = await discard({ bloodgroup: 'O+', count: 2, reason: 'Fridge failure' });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toEqual({
      detail: 'Only 1 unit of O+ red cells is available to discard.',
      code: 'insufficient_stock',
      available: 1,
    });
    expect((await stock())['O+']).toBe(1);

    const none = await discard({ bloodgroup: 'AB-', component: 'plasma', count: 1, reason: 'Fridge failure' });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({
      detail: 'No units of AB- plasma are available to discard.',
      code: 'insufficient_stock',
      available: 0,
    });
  });

  it('discards every expired unit, and nothing when none has expired', async () => {
    const expired = await insertUnits(t, { bloodgroup: 'B-', count: 2, expires_on: '2026-03-09' });
    const expiredOther = await insertUnits(t, { bloodgroup: 'AB+', count: 1, expires_on: '2026-02-01' });
    const usable = await insertUnits(t, { bloodgroup: 'B-', count: 1, expires_on: '2026-03-10' });

    const response = await discard({ expired: true });
    expect(response.statusCode).toBe(200);
    // Oldest expiry first.
    expect(response.json()).toEqual({ discarded_unit_ids: [...expiredOther, ...expired] });
    expect(await statusOf([...expired, ...expiredOther, ...usable])).toEqual(['discarded', 'discarded', 'discarded', 'available']);
    const row = await t.db.selectFrom('blood_units').selectAll().where('id', '=', expired[0]!).executeTakeFirstOrThrow();
    expect(row.discard_reason).toBe('Expired');

    const none = await discard({ expired: true });
    expect(none.json()).toEqual({ discarded_unit_ids: [] });
    expect(await auditEntries(t, 'units.discarded')).toHaveLength(1);
  });

  it('refuses a body that matches none of the three forms', async () => {
    expect((await discard({})).statusCode).toBe(422);
    expect((await discard({ unit_ids: [] })).statusCode).toBe(422);
    expect((await discard({ expired: false })).statusCode).toBe(422);
  });
});
