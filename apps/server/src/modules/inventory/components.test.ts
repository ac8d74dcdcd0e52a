import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays } from '@bloodbank/shared/dates';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { compatibleDonorGroups, type Component } from '@bloodbank/shared/components';
import type { StockEntry } from '@bloodbank/shared/blood-request';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createDonor, createPatient, type TestUser } from '../../../test/factories';
import { activitiesOf } from '../../../test/admin-fixtures';
import { book, collect, NEGATIVE_RESULTS, recordResults, setToday, staffOf } from '../../../test/donation-helpers';

/**
 * Blood components (PRODUCT.md 3.3, 3.5): shelf lives, processing whole blood, compatibility per
 * component, first-expiring-first across red cells and whole blood, and what the screens count.
 */

const TODAY = '2026-05-04';
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: `${TODAY}T09:00:00Z` });
  admin = await staffOf(t);
});
afterAll(() => t.close());
beforeEach(async () => {
  setToday(t, TODAY);
  await t.db.deleteFrom('blood_units').where('parent_unit_id', 'is not', null).execute();
  await t.db.deleteFrom('blood_units').execute();
});

const post = (url: string, payload?: object, as: TestUser = admin) =>
  t.app.inject({ method: 'POST', url, headers: as.headers, ...(payload ? { payload } : {}) });
const stock = async (): Promise<StockEntry[]> =>
  (await t.app.inject({ method: 'GET', url: '/api/stock', headers: admin.headers })).json();
const stockOf = async (group: BloodGroup) => (await stock()).find((entry) => entry.bloodgroup === group)!;
const receive = async (bloodgroup: BloodGroup, component: Component, count: number, collectedOn = TODAY) => {
  const response = await post('/api/admin/units', { bloodgroup, component, count, collected_on: collectedOn });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ units: { id: number; expires_on: string }[] }>().units;
};
const request = async (bloodgroup: BloodGroup, component: Component, unit: number) => {
  const patient = await createPatient(t, { bloodgroup });
  const response = await post(
    '/api/requests',
    { bloodgroup, unit, date: addDays(TODAY, 2), doctorname: 'Dr. Rao', hospitaladdress: 'City Hospital', reason: 'Surgery', component },
    patient,
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number; component: Component }>();
};
const approve = (requestId: number, bloodgroup?: BloodGroup) =>
  post(`/api/admin/requests/${requestId}/approve`, bloodgroup ? { bloodgroup } : {});

/** A released whole-blood unit collected today from a fresh donor of that group. */
async function collectedWholeBlood(bloodgroup: BloodGroup, release = true) {
  const donor = await createDonor(t, { bloodgroup });
  const donationId = await book(t, donor, TODAY);
  const collected = await collect(t, donationId);
  expect(collected.statusCode, collected.body).toBe(200);
  if (release) expect((await recordResults(t, donationId, { ...NEGATIVE_RESULTS, bloodgroup })).statusCode).toBe(200);
  return { donor, donationId, unitId: collected.json<{ unit_ids: number[] }>().unit_ids[0]! };
}

describe('shelf lives', () => {
  it.each([
    ['whole_blood', 35],
    ['red_cells', 42],
    ['plasma', 365],
    ['platelets', 5],
  ] as const)('%s keeps %i days: stock on its expiry day, not the day after', async (component, days) => {
    const [unit] = await receive('A+', component, 1);
    expect(unit!.expires_on).toBe(addDays(TODAY, days));
    setToday(t, addDays(TODAY, days));
    expect((await stockOf('A+')).components[component]).toBe(1);
    setToday(t, addDays(TODAY, days + 1));
    expect((await stockOf('A+')).components[component]).toBe(0);
  });

  it('a collection is whole blood: 35 days', async () => {
    const { unitId } = await collectedWholeBlood('B+');
    const row = await t.db.selectFrom('blood_units').select(['component', 'expires_on']).where('id', '=', unitId).executeTakeFirstOrThrow();
    expect(row).toEqual({ component: 'whole_blood', expires_on: addDays(TODAY, 35) });
  });
});

describe('processing whole blood (POST /api/admin/units/:id/process)', () => {
  it('yields red cells, plasma and platelets on the day of collection, each with its own expiry; once', async () => {
    const { unitId, donationId } = await collectedWholeBlood('O-');
    const response = await post(`/api/admin/units/${unitId}/process`, { components: ['platelets', 'red_cells', 'plasma'] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().units).toEqual([
      expect.objectContaining({ component: 'red_cells', bloodgroup: 'O-', donation_id: donationId, parent_unit_id: unitId, collected_on: TODAY, expires_on: addDays(TODAY, 42), status: 'available' }),
      expect.objectContaining({ component: 'plasma', parent_unit_id: unitId, expires_on: addDays(TODAY, 365), status: 'available' }),
      expect.objectContaining({ component: 'platelets', parent_unit_id: unitId, expires_on: addDays(TODAY, 5), status: 'available' }),
    ]);
    expect((await stockOf('O-')).components).toEqual({ whole_blood: 0, red_cells: 1, plasma: 1, platelets: 1 });
    const parent = await t.db.selectFrom('blood_units').select('status').where('id', '=', unitId).executeTakeFirstOrThrow();
    expect(parent.status).toBe('processed');

    const again = await post(`/api/admin/units/${unitId}/process`, { components: ['red_cells'] });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('This unit has already been separated into components.');
  });

  it('finds a bag by the number on its label: the unit and the components separated from it (GET /api/admin/units?unit=N)', async () => {
    const { unitId } = await collectedWholeBlood('A+');
    const other = await collectedWholeBlood('A+');
    const made = await post(`/api/admin/units/${unitId}/process`, { components: ['red_cells', 'plasma'] });
    const componentIds = made.json<{ units: { id: number }[] }>().units.map((unit) => unit.id);
    const list = async (query: string) => t.app.inject({ method: 'GET', url: `/api/admin/units?${query}`, headers: admin.headers });

    const found = await list(`unit=${unitId}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().total).toBe(3);
    // The bag first, then the components made from it.
    expect(found.json<{ items: { id: number }[] }>().items.map((unit) => unit.id)).toEqual([unitId, ...componentIds]);
    // A component's number is that component alone; the other filters still apply.
    expect((await list(`unit=${componentIds[1]}`)).json<{ items: { id: number; component: string; parent_unit_id: number }[] }>().items).toEqual([
      expect.objectContaining({ id: componentIds[1], component: 'plasma', parent_unit_id: unitId }),
    ]);
    expect((await list(`unit=${unitId}&status=available`)).json().total).toBe(2);
    expect((await list(`unit=${other.unitId}`)).json().total).toBe(1);
    expect((await list('unit=999999')).json()).toMatchObject({ items: [], total: 0 });
    // The number as printed on a label, nothing a number parser would also take.
    for (const text of ['12a', '1e3', '0x10', '0', '-4', '99999999999', '12&unit=13']) {
      const wrong = await list(`unit=${text}`);
      expect(wrong.statusCode, text).toBe(422);
      expect(wrong.json().errors, text).toEqual({ unit: 'Enter a unit number' });
    }
  });

  it('refuses platelets the day after collection, and still separates red cells and plasma then', async () => {
    const { unitId } = await collectedWholeBlood('A-');
    setToday(t, addDays(TODAY, 1));
    const late = await post(`/api/admin/units/${unitId}/process`, { components: ['red_cells', 'plasma', 'platelets'] });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ detail: 'Platelets must be separated on the day of collection.', code: 'platelets_too_late' });
    const without = await post(`/api/admin/units/${unitId}/process`, { components: ['red_cells', 'plasma'] });
    expect(without.statusCode).toBe(200);
  });

  it("keeps a quarantined collection's components out of stock until the results release every one", async () => {
    const { unitId, donationId } = await collectedWholeBlood('AB+', false);
    const processed = await post(`/api/admin/units/${unitId}/process`, { components: ['red_cells', 'plasma'] });
    expect(processed.json().units.map((unit: { status: string; hold_reason: string }) => [unit.status, unit.hold_reason])).toEqual([
      ['quarantined', 'testing'],
      ['quarantined', 'testing'],
    ]);
    expect((await stockOf('AB+')).components).toEqual({ whole_blood: 0, red_cells: 0, plasma: 0, platelets: 0 });
    expect((await recordResults(t, donationId, { ...NEGATIVE_RESULTS, bloodgroup: 'AB+' })).json().unit_ids).toHaveLength(2);
    expect((await stockOf('AB+')).components).toEqual({ whole_blood: 0, red_cells: 1, plasma: 1, platelets: 0 });
  });

  it("relabels the separated parent and its children when the lab corrects the donor's group", async () => {
    const { unitId, donationId } = await collectedWholeBlood('A+', false);
    await post(`/api/admin/units/${unitId}/process`, { components: ['red_cells', 'plasma'] });
    await recordResults(t, donationId, { ...NEGATIVE_RESULTS, bloodgroup: 'A-' });
    const groups = await t.db.selectFrom('blood_units').select('bloodgroup').where('donation_id', '=', donationId).execute();
    expect(groups).toEqual([{ bloodgroup: 'A-' }, { bloodgroup: 'A-' }, { bloodgroup: 'A-' }]);
  });

  it('discards every component of a collection with a reactive result', async () => {
    const { unitId, donationId } = await collectedWholeBlood('B-', false);
    await post(`/api/admin/units/${unitId}/process`, { components: ['red_cells', 'plasma'] });
    const outcome = await recordResults(t, donationId, { ...NEGATIVE_RESULTS, hcv: 'reactive', bloodgroup: 'B-' });
    expect(outcome.json().unit_ids).toHaveLength(2);
    const children = await t.db.selectFrom('blood_units').select('status').where('parent_unit_id', '=', unitId).execute();
    expect(children).toEqual([{ status: 'discarded' }, { status: 'discarded' }]);
  });

  it('refuses a unit that is not whole blood, an expired one, an issued one and an unknown one', async () => {
    const [redCells] = await receive('O+', 'red_cells', 1);
    expect((await post(`/api/admin/units/${redCells!.id}/process`, { components: ['plasma'] })).json().detail).toBe(
      'Only a whole-blood unit can be separated into components.',
    );
    const [old] = await receive('O+', 'whole_blood', 1, addDays(TODAY, -35));
    setToday(t, addDays(TODAY, 1));
    expect((await post(`/api/admin/units/${old!.id}/process`, { components: ['plasma'] })).json().detail).toBe(
      'This unit has expired and can no longer be separated.',
    );
    expect((await post('/api/admin/units/999999/process', { components: ['plasma'] })).statusCode).toBe(404);
    const invalid = await post(`/api/admin/units/${old!.id}/process`, { components: [] });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toEqual({ components: 'Choose at least one component' });
  });

  it('processes once when two staff process the same unit at the same moment', async () => {
    const { unitId } = await collectedWholeBlood('O+');
    const responses = await Promise.all([
      post(`/api/admin/units/${unitId}/process`, { components: ['red_cells', 'plasma'] }),
      post(`/api/admin/units/${unitId}/process`, { components: ['red_cells', 'plasma', 'platelets'] }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    const children = await t.db.selectFrom('blood_units').select('id').where('parent_unit_id', '=', unitId).execute();
    expect(children.length).toBeGreaterThanOrEqual(2);
    expect(children.length).toBeLessThanOrEqual(3);
  });
});

describe('requests for a component', () => {
  it('fills a red-cell request from whole blood when red cells are short, first-expiring-first across both', async () => {
    const [laterRedCells] = await receive('A+', 'red_cells', 1, TODAY); // expires +42
    const [soonerWholeBlood] = await receive('A+', 'whole_blood', 1, addDays(TODAY, -20)); // expires +15
    const first = await request('A+', 'red_cells', 1);
    expect(first.component).toBe('red_cells');
    const approved = await approve(first.id);
    expect(approved.json().issued_unit_ids).toEqual([soonerWholeBlood!.id]);
    const second = await approve((await request('A+', 'red_cells', 1)).id);
    expect(second.json().issued_unit_ids).toEqual([laterRedCells!.id]);
  });

  const componentsOfUnits = async (ids: number[]) =>
    (await t.db.selectFrom('blood_units').select(['id', 'component', 'bloodgroup', 'status', 'request_id']).where('id', 'in', ids).orderBy('id').execute());

  it('approves a red-cell request for more units than there are red cells, making up the rest with whole blood', async () => {
    const [redCells] = await receive('A+', 'red_cells', 1, addDays(TODAY, -20)); // expires +22: the first to go
    const wholeBlood = await receive('A+', 'whole_blood', 3, TODAY); // expire +35
    expect((await stockOf('A+')).components).toMatchObject({ red_cells: 1, whole_blood: 3 });

    const patientRequest = await request('A+', 'red_cells', 3);
    const approved = await approve(patientRequest.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', component: 'red_cells', issued_bloodgroup: 'A+' });
    const issuedIds: number[] = approved.json().issued_unit_ids;
    expect([...issuedIds].sort((a, b) => a - b)).toEqual([redCells!.id, wholeBlood[0]!.id, wholeBlood[1]!.id]);
    expect(await componentsOfUnits(issuedIds)).toEqual([
      { id: redCells!.id, component: 'red_cells', bloodgroup: 'A+', status: 'issued', request_id: patientRequest.id },
      { id: wholeBlood[0]!.id, component: 'whole_blood', bloodgroup: 'A+', status: 'issued', request_id: patientRequest.id },
      { id: wholeBlood[1]!.id, component: 'whole_blood', bloodgroup: 'A+', status: 'issued', request_id: patientRequest.id },
    ]);
    // One whole-blood bag is left: the one unit of blood the screens now show for A+.
    expect(await stockOf('A+')).toEqual({ bloodgroup: 'A+', units: 1, components: { whole_blood: 1, red_cells: 0, plasma: 0, platelets: 0 } });
  });

  it('with no red cells at all, a red-cell request takes every whole-blood unit when they are exactly enough, and is short by one more', async () => {
    const wholeBlood = await receive('B+', 'whole_blood', 2);
    const tooMany = await approve((await request('B+', 'red_cells', 3)).id);
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toMatchObject({
      detail: 'Stock does not have enough blood to approve this request. Only 2 units available.',
      code: 'insufficient_stock',
      available: 2,
    });
    expect((await stockOf('B+')).units).toBe(2);

    const exact = await approve((await request('B+', 'red_cells', 2)).id);
    expect(exact.statusCode, exact.body).toBe(200);
    expect([...exact.json().issued_unit_ids].sort((a: number, b: number) => a - b)).toEqual(wholeBlood.map((unit) => unit.id));
    expect((await componentsOfUnits(exact.json().issued_unit_ids)).map((unit) => unit.component)).toEqual(['whole_blood', 'whole_blood']);
    expect(await stockOf('B+')).toEqual({ bloodgroup: 'B+', units: 0, components: { whole_blood: 0, red_cells: 0, plasma: 0, platelets: 0 } });
  });

  it('when the patient\'s group has no red cells, the admin may fill the request from whole blood of a compatible group', async () => {
    await receive('A+', 'red_cells', 1); // the patient's own group: one red-cell unit, short of two
    const wholeBlood = await receive('O-', 'whole_blood', 2);
    const patientRequest = await request('A+', 'red_cells', 2);
    const short = await approve(patientRequest.id);
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ available: 1, compatible: [{ bloodgroup: 'O-', units: 2 }] });

    const fromO = await approve(patientRequest.id, 'O-');
    expect(fromO.statusCode, fromO.body).toBe(200);
    expect(fromO.json()).toMatchObject({ status: 'approved', issued_bloodgroup: 'O-' });
    expect(await componentsOfUnits(fromO.json().issued_unit_ids)).toEqual(
      wholeBlood.map((unit) => ({ id: unit.id, component: 'whole_blood', bloodgroup: 'O-', status: 'issued', request_id: patientRequest.id })),
    );
    expect((await stockOf('O-')).units).toBe(0);
    expect((await stockOf('A+')).components).toMatchObject({ red_cells: 1, whole_blood: 0 });
  });

  it('defaults to red cells; plasma and platelets only from their own units', async () => {
    await receive('B+', 'red_cells', 3);
    const plasmaRequest = await request('B+', 'plasma', 1);
    const short = await approve(plasmaRequest.id);
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ code: 'insufficient_stock', available: 0 });
  });

  it('plasma runs the other way round: AB plasma to an O patient is allowed, O plasma to an A patient refused', async () => {
    await receive('AB-', 'plasma', 1);
    await receive('O+', 'plasma', 1);
    const forO = await request('O+', 'plasma', 1);
    // O+ has plasma of its own; the admin may still give AB plasma.
    expect((await approve(forO.id, 'AB-')).statusCode).toBe(200);
    const forA = await request('A+', 'plasma', 1);
    const refused = await approve(forA.id, 'O+');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ bloodgroup: 'O+ plasma cannot be given to a patient who needs A+.' });
  });

  it('lists the groups that could cover a short request by the component\'s rule (platelets: ABO-identical first)', async () => {
    await receive('A-', 'platelets', 2);
    await receive('O+', 'platelets', 2);
    await receive('B+', 'platelets', 2);
    const short = await approve((await request('A+', 'platelets', 2)).id);
    expect(short.statusCode).toBe(409);
    expect(short.json().compatible.map((entry: { bloodgroup: string }) => entry.bloodgroup)).toEqual(['A-', 'B+', 'O+']);
    expect(compatibleDonorGroups('platelets', 'A+').slice(0, 2)).toEqual(['A+', 'A-']);
    expect(compatibleDonorGroups('plasma', 'A+')).toEqual(['A+', 'A-', 'AB+', 'AB-']);
    expect(compatibleDonorGroups('plasma', 'AB-')).toEqual(['AB-', 'AB+']);
  });

  it('issues exactly the units there are when twenty approvals of one component compete', async () => {
    await receive('O-', 'plasma', 5);
    const requests = [];
    for (let index = 0; index < 20; index += 1) requests.push(await request('O-', 'plasma', 1));
    const responses = await Promise.all(requests.map((entry) => approve(entry.id)));
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(5);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(15);
    const issued = responses.flatMap((response) => (response.statusCode === 200 ? response.json().issued_unit_ids : []));
    expect(new Set(issued).size).toBe(5);
  });

  it("names the components in the donor's blood journey", async () => {
    const { donor, unitId } = await collectedWholeBlood('AB-');
    await post(`/api/admin/units/${unitId}/process`, { components: ['red_cells', 'plasma'] });
    const patient = await request('AB-', 'red_cells', 1);
    expect((await approve(patient.id)).statusCode).toBe(200);
    const messages = (await activitiesOf(t, donor.id)).map((activity) => activity.message);
    expect(messages).toContain('Your donation of 4 May gave red cells to a patient.');
  });
});

describe('what the screens count', () => {
  it('GET /api/stock: units = red cells + whole blood; the dashboard total is every component; the home figure agrees', async () => {
    await receive('A+', 'red_cells', 2);
    await receive('A+', 'whole_blood', 1);
    await receive('A+', 'plasma', 4);
    await receive('O-', 'platelets', 3);
    const aPlus = await stockOf('A+');
    expect(aPlus).toEqual({ bloodgroup: 'A+', units: 3, components: { whole_blood: 1, red_cells: 2, plasma: 4, platelets: 0 } });

    const dashboard = (await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: admin.headers })).json();
    expect(dashboard.totalBloodUnits).toBe(10);
    expect(dashboard.inventory.find((row: { bloodgroup: string }) => row.bloodgroup === 'A+')).toMatchObject({
      units: 3,
      components: { whole_blood: 1, red_cells: 2, plasma: 4, platelets: 0 },
    });
    const stats = (await t.app.inject({ method: 'GET', url: '/api/stats' })).json();
    expect(stats.units).toBe((await stock()).reduce((sum, entry) => sum + entry.units, 0));
  });
});
