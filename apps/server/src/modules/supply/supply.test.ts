import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays } from '@bloodbank/shared/dates';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { UnitStatus } from '@bloodbank/shared/admin';
import type { Component } from '@bloodbank/shared/components';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin } from '../../../test/factories';
import { ConfigError, loadConfig } from '../../config';

const TODAY = '2026-03-10';

interface UnitFields {
  component?: Component;
  status?: UnitStatus;
  expires_on?: string;
}

/** `count` bags of a group, inserted as they are (status, component, expiry), not through the inventory rules. */
async function insertUnits(t: TestApp, bloodgroup: BloodGroup, count: number, fields: UnitFields = {}) {
  if (count === 0) return;
  const status = fields.status ?? 'available';
  await t.db
    .insertInto('blood_units')
    .values(
      Array.from({ length: count }, () => ({
        bloodgroup,
        component: fields.component ?? 'red_cells',
        source: 'manual' as const,
        donation_id: null,
        collected_on: TODAY,
        expires_on: fields.expires_on ?? addDays(TODAY, 42),
        status,
        hold_reason: status === 'quarantined' ? ('testing' as const) : null,
        request_id: null,
        issued_at: null,
        discarded_at: status === 'discarded' ? `${TODAY}T08:00:00.000Z` : null,
        discard_reason: status === 'discarded' ? 'Damaged bag' : null,
        created_at: `${TODAY}T08:00:00.000Z`,
      })),
    )
    .execute();
}

async function getSupply(t: TestApp) {
  const response = await t.app.inject({ method: 'GET', url: '/api/public/supply' });
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

const levelsOf = async (t: TestApp) =>
  Object.fromEntries(((await getSupply(t)).json() as { bloodgroup: string; level: string }[]).map((entry) => [entry.bloodgroup, entry.level]));

describe('GET /api/public/supply with the default thresholds (critical under 2 units, low under 5)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: `${TODAY}T12:00:00Z` });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('blood_units').execute();
  });

  it('answers every group in the usual order, each at its exact boundary', async () => {
    await insertUnits(t, 'A-', 1);
    await insertUnits(t, 'B+', 2);
    await insertUnits(t, 'B-', 4);
    await insertUnits(t, 'AB+', 5);
    await insertUnits(t, 'AB-', 40);
    await insertUnits(t, 'O+', 3);
    await insertUnits(t, 'O-', 6);

    const response = await getSupply(t);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual([
      { bloodgroup: 'A+', level: 'critical' },
      { bloodgroup: 'A-', level: 'critical' },
      { bloodgroup: 'B+', level: 'low' },
      { bloodgroup: 'B-', level: 'low' },
      { bloodgroup: 'AB+', level: 'good' },
      { bloodgroup: 'AB-', level: 'good' },
      { bloodgroup: 'O+', level: 'low' },
      { bloodgroup: 'O-', level: 'good' },
    ]);
  });

  it('never tells a count: each entry holds a group and a level, and the answer has no digit at all', async () => {
    await insertUnits(t, 'O+', 123);
    await insertUnits(t, 'A+', 7, { component: 'plasma' });

    const response = await getSupply(t);
    const entries = response.json() as Record<string, unknown>[];
    expect(entries).toHaveLength(8);
    for (const entry of entries) expect(Object.keys(entry).sort()).toEqual(['bloodgroup', 'level']);
    expect(response.body).not.toMatch(/\d/);
  });

  it('counts red cells and whole blood, available and not expired today; never plasma, platelets, expired, quarantined, issued or discarded units', async () => {
    // O+: 3 usable red-cell units, one of them expiring today (still usable today), and plenty that are not stock.
    await insertUnits(t, 'O+', 2);
    await insertUnits(t, 'O+', 1, { expires_on: TODAY });
    await insertUnits(t, 'O+', 4, { expires_on: addDays(TODAY, -1) });
    await insertUnits(t, 'O+', 4, { status: 'quarantined' });
    await insertUnits(t, 'O+', 4, { status: 'discarded' });
    await insertUnits(t, 'O+', 4, { status: 'processed', component: 'whole_blood' });
    await insertUnits(t, 'O+', 9, { component: 'plasma' });
    await insertUnits(t, 'O+', 9, { component: 'platelets' });
    // A-: whole blood alone serves a red-cell request.
    await insertUnits(t, 'A-', 2, { component: 'whole_blood' });
    expect(await levelsOf(t)).toMatchObject({ 'O+': 'low', 'A-': 'low' });

    // Two whole-blood units more make O+ five: good.
    await insertUnits(t, 'O+', 2, { component: 'whole_blood' });
    expect(await levelsOf(t)).toMatchObject({ 'O+': 'good', 'A-': 'low' });

    // Tomorrow the unit that expired today is gone: four units, low again.
    t.clock.set(`${addDays(TODAY, 1)}T12:00:00Z`);
    try {
      expect(await levelsOf(t)).toMatchObject({ 'O+': 'low' });
    } finally {
      t.clock.set(`${TODAY}T12:00:00Z`);
    }
  });

  it('follows the stock as staff receive and discard units, reusing nothing stale', async () => {
    const admin = await createAdmin(t);
    expect(await levelsOf(t)).toMatchObject({ 'B+': 'critical' });

    const received = await t.app.inject({
      method: 'POST',
      url: '/api/admin/units',
      headers: admin.headers,
      payload: { bloodgroup: 'B+', count: 5, collected_on: TODAY },
    });
    expect(received.statusCode, received.body).toBe(201);
    expect(await levelsOf(t)).toMatchObject({ 'B+': 'good' });

    const discarded = await t.app.inject({
      method: 'POST',
      url: '/api/admin/units/discard',
      headers: admin.headers,
      payload: { bloodgroup: 'B+', count: 4, reason: 'Cold chain broken' },
    });
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect(await levelsOf(t)).toMatchObject({ 'B+': 'critical' });
  });

  it('is public: no sign-in needed, and a signed-in caller gets the same answer', async () => {
    await insertUnits(t, 'AB-', 2);
    const admin = await createAdmin(t);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/public/supply' });
    const signedIn = await t.app.inject({ method: 'GET', url: '/api/public/supply', headers: admin.headers });
    expect(anonymous.statusCode).toBe(200);
    expect(signedIn.statusCode).toBe(200);
    expect(anonymous.json()).toContainEqual({ bloodgroup: 'AB-', level: 'low' });
    expect(signedIn.body).toBe(anonymous.body);
  });
});

describe('GET /api/public/supply with configured thresholds', () => {
  it('honours SUPPLY_CRITICAL_UNITS and LOW_STOCK_THRESHOLD', async () => {
    const t = await createTestApp({ now: `${TODAY}T12:00:00Z`, env: { SUPPLY_CRITICAL_UNITS: '4', LOW_STOCK_THRESHOLD: '10' } });
    try {
      await insertUnits(t, 'A+', 3);
      await insertUnits(t, 'A-', 4);
      await insertUnits(t, 'B+', 9);
      await insertUnits(t, 'B-', 10);
      expect(await levelsOf(t)).toEqual({
        'A+': 'critical',
        'A-': 'low',
        'B+': 'low',
        'B-': 'good',
        'AB+': 'critical',
        'AB-': 'critical',
        'O+': 'critical',
        'O-': 'critical',
      });
    } finally {
      await t.close();
    }
  });

  it('with SUPPLY_CRITICAL_UNITS=0 nothing is critical, and with both thresholds equal nothing is low', async () => {
    const t = await createTestApp({ now: `${TODAY}T12:00:00Z`, env: { SUPPLY_CRITICAL_UNITS: '0', LOW_STOCK_THRESHOLD: '0' } });
    try {
      expect(new Set(Object.values(await levelsOf(t)))).toEqual(new Set(['good']));
    } finally {
      await t.close();
    }
    const equal = await createTestApp({ now: `${TODAY}T12:00:00Z`, env: { SUPPLY_CRITICAL_UNITS: '3', LOW_STOCK_THRESHOLD: '3' } });
    try {
      await insertUnits(equal, 'O-', 2);
      await insertUnits(equal, 'O+', 3);
      expect(await levelsOf(equal)).toMatchObject({ 'O-': 'critical', 'O+': 'good' });
    } finally {
      await equal.close();
    }
  });
});

describe('loadConfig: SUPPLY_CRITICAL_UNITS', () => {
  it('defaults to 2 and reads an integer from 0 to 10000', () => {
    expect(loadConfig({}).supplyCriticalUnits).toBe(2);
    expect(loadConfig({ SUPPLY_CRITICAL_UNITS: '0' }).supplyCriticalUnits).toBe(0);
    expect(loadConfig({ SUPPLY_CRITICAL_UNITS: '10000', LOW_STOCK_THRESHOLD: '10000' }).supplyCriticalUnits).toBe(10_000);
    for (const bad of ['-1', '10001', '2.5', 'few']) {
      expect(() => loadConfig({ SUPPLY_CRITICAL_UNITS: bad }), bad).toThrow(ConfigError);
    }
  });

  it('refuses a critical threshold above the low-stock threshold, naming both', () => {
    expect(() => loadConfig({ SUPPLY_CRITICAL_UNITS: '6' })).toThrow(
      new ConfigError(['SUPPLY_CRITICAL_UNITS (6) must not be above LOW_STOCK_THRESHOLD (5)']),
    );
    expect(() => loadConfig({ LOW_STOCK_THRESHOLD: '1' })).toThrow(
      new ConfigError(['SUPPLY_CRITICAL_UNITS (2) must not be above LOW_STOCK_THRESHOLD (1)']),
    );
    expect(loadConfig({ SUPPLY_CRITICAL_UNITS: '5' }).supplyCriticalUnits).toBe(5);
  });
});
