import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient, type TestUser } from '../../../test/factories';
import { insertDonation, insertRequest, insertUnits } from '../../../test/admin-fixtures';

// Tuesday 10 March 2026: the current week started on Monday 9 March.
const NOW = '2026-03-10T12:00:00.000Z';
const WEEK_STARTS = [
  '2025-12-22',
  '2025-12-29',
  '2026-01-05',
  '2026-01-12',
  '2026-01-19',
  '2026-01-26',
  '2026-02-02',
  '2026-02-09',
  '2026-02-16',
  '2026-02-23',
  '2026-03-02',
  '2026-03-09',
];

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  admin = await createAdmin(t);
});
afterAll(() => t.close());

const dashboard = async (app: TestApp = t, as: TestUser = admin) => {
  const response = await app.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: as.headers });
  expect(response.statusCode).toBe(200);
  return response.json();
};

describe('GET /api/admin/dashboard', () => {
  it('shows zeros on an empty database, every group low, and twelve empty weeks starting on Mondays', async () => {
    expect(await dashboard()).toEqual({
      totalDonors: 0,
      totalPatients: 0,
      totalBloodUnits: 0,
      pendingDonations: 0,
      bookingsDue: 0,
      awaitingResults: 0,
      pendingRequests: 0,
      lowStockThreshold: 5,
      inventory: ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'].map((bloodgroup) => ({
        bloodgroup,
        units: 0,
        components: { whole_blood: 0, red_cells: 0, plasma: 0, platelets: 0 },
        expiring_soon: 0,
        low: true,
        critical: true,
        expired: 0,
        in_testing: 0,
        on_hold: 0,
      })),
      weekly: WEEK_STARTS.map((week_start) => ({ week_start, donations: 0, requests: 0 })),
      expiringUnits: [],
      shelfLifeDays: { whole_blood: 35, red_cells: 42, plasma: 365, platelets: 5 },
    });
  });

  it('counts everything from the database; total units equals the sum of the stock table', async () => {
    const donors = [await createDonor(t), await createDonor(t), await createDonor(t)];
    const patients = [await createPatient(t), await createPatient(t)];
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', donors[2]!.id).execute();

    // Donations: two pending, one approved, one rejected; requests: one pending, one cancelled.
    await insertDonation(t, donors[0]!.id, { created_at: '2026-03-09T00:00:00.000Z' }); // Monday 00:00: this week
    await insertDonation(t, donors[1]!.id, { created_at: '2026-03-08T23:59:59.999Z' }); // Sunday: last week
    await insertDonation(t, donors[0]!.id, { status: 'released', created_at: '2025-12-22T00:00:00.000Z' }); // first week
    await insertDonation(t, donors[1]!.id, { status: 'rejected', created_at: '2025-12-21T23:59:59.999Z' }); // too old
    await insertRequest(t, patients[0]!.id, { created_at: '2026-03-10T11:00:00.000Z' });
    await insertRequest(t, patients[1]!.id, { status: 'cancelled', created_at: '2026-02-10T08:00:00.000Z' });

    // Stock of A+: 6 usable (two expire within 7 days: today and today + 7), 1 expired, 1 discarded.
    await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-03-10' });
    await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-03-17' });
    await insertUnits(t, { bloodgroup: 'A+', count: 4, expires_on: '2026-03-18' });
    await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-03-09' });
    await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-04-01', status: 'discarded' });
    const [oMinus] = await insertUnits(t, { bloodgroup: 'O-', count: 2, expires_on: '2026-03-12' });

    const body = await dashboard();
    expect(body).toMatchObject({
      totalDonors: 2,
      totalPatients: 2,
      totalBloodUnits: 8,
      pendingDonations: 2,
      pendingRequests: 1,
    });
    const row = (group: string) => body.inventory.find((entry: { bloodgroup: string }) => entry.bloodgroup === group);
    const redCells = (count: number) => ({ whole_blood: 0, red_cells: count, plasma: 0, platelets: 0 });
    expect(row('A+')).toEqual({ bloodgroup: 'A+', units: 6, components: redCells(6), expiring_soon: 2, low: false, critical: false, expired: 1, in_testing: 0, on_hold: 0 });
    expect(row('O-')).toEqual({ bloodgroup: 'O-', units: 2, components: redCells(2), expiring_soon: 2, low: true, critical: false, expired: 0, in_testing: 0, on_hold: 0 });
    expect(row('B+')).toEqual({ bloodgroup: 'B+', units: 0, components: redCells(0), expiring_soon: 0, low: true, critical: true, expired: 0, in_testing: 0, on_hold: 0 });
    // Every component column of every group (components.test.ts has plasma and platelets in it).
    expect(body.totalBloodUnits).toBe(
      body.inventory.reduce(
        (sum: number, entry: { components: Record<string, number> }) => sum + Object.values(entry.components).reduce((a, b) => a + b, 0),
        0,
      ),
    );

    const stock = await t.app.inject({ method: 'GET', url: '/api/stock', headers: admin.headers });
    expect(stock.json().find((entry: { bloodgroup: string }) => entry.bloodgroup === 'A+').units).toBe(6);

    expect(body.expiringUnits.map((unit: { bloodgroup: string; expires_on: string }) => [unit.bloodgroup, unit.expires_on])).toEqual([
      ['A+', '2026-03-10'],
      ['O-', '2026-03-12'],
      ['O-', '2026-03-12'],
      ['A+', '2026-03-17'],
    ]);
    expect(body.expiringUnits[1].id).toBe(oMinus);
    expect(body.expiringUnits[1].component).toBe('red_cells');

    const week = (start: string) => body.weekly.find((entry: { week_start: string }) => entry.week_start === start);
    expect(body.weekly).toHaveLength(12);
    expect(week('2026-03-09')).toEqual({ week_start: '2026-03-09', donations: 1, requests: 1 });
    expect(week('2026-03-02')).toEqual({ week_start: '2026-03-02', donations: 1, requests: 0 });
    expect(week('2026-02-09')).toEqual({ week_start: '2026-02-09', donations: 0, requests: 1 });
    expect(week('2025-12-22')).toEqual({ week_start: '2025-12-22', donations: 1, requests: 0 });
    expect(body.weekly.reduce((sum: number, entry: { donations: number }) => sum + entry.donations, 0)).toBe(3);
  });

  it('uses the configured low-stock threshold', async () => {
    const strict = await createTestApp({ now: NOW, env: { LOW_STOCK_THRESHOLD: '2' } });
    try {
      const strictAdmin = await createAdmin(strict);
      await insertUnits(strict, { bloodgroup: 'B-', count: 2, expires_on: '2026-04-01' });
      await insertUnits(strict, { bloodgroup: 'AB-', count: 1, expires_on: '2026-04-01' });
      const body = await dashboard(strict, strictAdmin);
      expect(body.lowStockThreshold).toBe(2);
      const low = Object.fromEntries(body.inventory.map((entry: { bloodgroup: string; low: boolean }) => [entry.bloodgroup, entry.low]));
      expect(low).toMatchObject({ 'B-': false, 'AB-': true, 'A+': true });
      // Critical as the home page says it (SUPPLY_CRITICAL_UNITS, 2 by default): one unit is, two are not.
      const critical = Object.fromEntries(body.inventory.map((entry: { bloodgroup: string; critical: boolean }) => [entry.bloodgroup, entry.critical]));
      expect(critical).toMatchObject({ 'B-': false, 'AB-': true, 'A+': true });
      // The same word the home page shows for each group.
      const supply = (await strict.app.inject({ method: 'GET', url: '/api/public/supply' })).json() as { bloodgroup: string; level: string }[];
      for (const { bloodgroup, level } of supply) expect(critical[bloodgroup], bloodgroup).toBe(level === 'critical');
    } finally {
      await strict.close();
    }
  });

  it("counts weeks in the blood bank's time zone", async () => {
    const kolkata = await createTestApp({ now: NOW, env: { TIMEZONE: 'Asia/Kolkata' } });
    try {
      const kolkataAdmin = await createAdmin(kolkata);
      const donor = await createDonor(kolkata);
      // 18:30 UTC on Sunday is midnight on Monday in Kolkata (UTC+05:30).
      await insertDonation(kolkata, donor.id, { created_at: '2026-03-08T18:30:00.000Z' });
      await insertDonation(kolkata, donor.id, { status: 'released', created_at: '2026-03-08T18:29:59.999Z' });
      const body = await dashboard(kolkata, kolkataAdmin);
      const week = (start: string) => body.weekly.find((entry: { week_start: string }) => entry.week_start === start);
      expect(week('2026-03-09').donations).toBe(1);
      expect(week('2026-03-02').donations).toBe(1);
    } finally {
      await kolkata.close();
    }
  });
});
