import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationForm, NEGATIVE_RESULTS, PASSING_SCREENING, setToday } from '../donation-helpers';
import { createAdmin, createDonor, createPatient } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

/**
 * A reused answer is fresh only if it declares every table it reads (db/change-versions.ts): a
 * table left out would let it be reused after that table changed. Every cache the app makes runs
 * its computation here under Kysely's query log, and any query naming a table its cache did not
 * declare fails the test (test/test-app.ts, `checkCacheReads`).
 */
const TODAY = '2026-06-15';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: `${TODAY}T10:00:00Z`, checkCacheReads: true });
});
afterAll(() => t.close());

describe('reused answers declare what they read', () => {
  it('every cache computes, and reads only the tables it declares', async () => {
    const [admin, donor, patient] = [await createAdmin(t), await createDonor(t), await createPatient(t)];
    const call = async (method: 'GET' | 'POST', url: string, headers: { authorization: string }, payload?: object) => {
      const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      return response;
    };
    // Some history for every answer to read.
    await call('POST', '/api/admin/units', admin.headers, { bloodgroup: 'O+', count: 3, collected_on: TODAY });
    const donation = await call('POST', '/api/donations', donor.headers, donationForm(TODAY));
    await call('POST', `/api/admin/donations/${donation.json().id}/collect`, admin.headers, PASSING_SCREENING);
    await call('POST', `/api/admin/donations/${donation.json().id}/results`, admin.headers, { ...NEGATIVE_RESULTS, bloodgroup: 'O+' });
    await call('POST', `/api/admin/donors/${donor.id}/deferrals`, admin.headers, { type: 'permanent', reason: 'Test' });
    await call('POST', '/api/requests', patient.headers, {
      bloodgroup: 'O+',
      unit: 1,
      date: TODAY,
      doctorname: 'Dr. Rao',
      hospitaladdress: 'City Hospital',
      reason: 'Surgery',
    });
    // A site, made after the booking by date above (with a site, a booking must name one).
    const site = await call('POST', '/api/admin/sites', admin.headers, {
      name: 'Town Hall',
      address: '1 Main Street',
      hours: { monday: { open: '08:00', close: '16:00' }, tuesday: { open: '08:00', close: '16:00' }, wednesday: null, thursday: null, friday: null, saturday: null, sunday: null },
    });
    setToday(t, TODAY, '11:00:00');

    for (const [url, headers] of [
      ['/api/sites', donor.headers],
      ['/api/notifications', donor.headers],
      [`/api/sites/${site.json().id}/slots?date=${TODAY}`, donor.headers],
      ['/api/stock', patient.headers],
      ['/api/public/supply', donor.headers],
      ['/api/patient/summary', patient.headers],
      ['/api/donor/summary', donor.headers],
      ['/api/game/state', donor.headers],
      ['/api/game/leaderboard?limit=10', donor.headers],
      ['/api/admin/dashboard', admin.headers],
      ['/api/admin/donations?page=1', admin.headers],
      ['/api/admin/requests?status=pending', admin.headers],
    ] as const) {
      await call('GET', url, headers);
    }
    // A POST that reads: the bookings a calendar change would cancel (decision 0025).
    await call('POST', `/api/admin/sites/${site.json().id}/affected-bookings`, admin.headers, {
      hours: { monday: { open: '09:00', close: '12:00' }, tuesday: null, wednesday: null, thursday: null, friday: null, saturday: null, sunday: null },
      closed_dates: [TODAY],
    });

    const reads = t.cacheReads!;
    const neverComputed = [...reads.declared].filter(([cache]) => !reads.computed.has(cache)).map(([, tables]) => tables);
    expect(neverComputed, 'caches this test does not reach: add their route above').toEqual([]);
    expect(reads.declared.size).toBeGreaterThanOrEqual(14);
    expect(reads.undeclared.map(({ declared, table }) => `reads ${table}, declares ${declared.join(', ')}`)).toEqual([]);
  });
});
