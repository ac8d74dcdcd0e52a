import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient, type TestUser } from '../../../test/factories';

let t: TestApp;
let donor: TestUser;
let patient: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-03-10T12:00:00Z' });
  donor = await createDonor(t);
  patient = await createPatient(t);
  admin = await createAdmin(t);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Every /api/admin route, with a body it would accept. */
const ADMIN_ROUTES: [Method, string, object?][] = [
  ['GET', '/api/admin/dashboard'],
  ['GET', '/api/admin/donors'],
  ['GET', '/api/admin/donors/1'],
  ['PATCH', '/api/admin/donors/1', { first_name: 'X' }],
  ['DELETE', '/api/admin/donors/1'],
  ['GET', '/api/admin/patients'],
  ['GET', '/api/admin/patients/2'],
  ['PATCH', '/api/admin/patients/2', { first_name: 'X' }],
  ['DELETE', '/api/admin/patients/2'],
  ['GET', '/api/admin/units'],
  ['POST', '/api/admin/units', { bloodgroup: 'A+', count: 1, collected_on: '2026-03-10' }],
  ['POST', '/api/admin/units/discard', { expired: true }],
  ['GET', '/api/admin/requests'],
  ['POST', '/api/admin/requests/1/approve', {}],
  ['POST', '/api/admin/requests/1/reject', {}],
  ['GET', '/api/admin/donations'],
  ['GET', '/api/admin/screening-thresholds'],
  ['POST', '/api/admin/donations/1/collect', { haemoglobin_g_dl: 13, weight_kg: 70, bp_systolic: 120, bp_diastolic: 80, pulse: 70 }],
  ['POST', '/api/admin/donations/1/results', { hiv: 'negative', hbv: 'negative', hcv: 'negative', syphilis: 'negative', bloodgroup: 'O+' }],
  ['GET', '/api/admin/donors/1/deferrals'],
  ['POST', '/api/admin/donors/1/deferrals', { type: 'permanent', reason: 'x' }],
  ['POST', '/api/admin/deferrals/1/lift', { reason: 'x' }],
  ['POST', '/api/admin/units/1/release'],
  ['POST', '/api/admin/units/1/process', { components: ['red_cells', 'plasma'] }],
  ['POST', '/api/admin/donations/1/reject', {}],
  ['POST', '/api/admin/donations/1/check-in'],
  ['GET', '/api/admin/sites'],
  ['GET', '/api/admin/callouts'],
  ['POST', '/api/admin/callouts', { bloodgroup: 'AB-' }],
  [
    'POST',
    '/api/admin/sites',
    { name: 'Hall', address: '1 Road', hours: { monday: { open: '08:00', close: '12:00' }, tuesday: null, wednesday: null, thursday: null, friday: null, saturday: null, sunday: null }, active: false },
  ],
  ['PATCH', '/api/admin/sites/1', { capacity: 3 }],
  [
    'POST',
    '/api/admin/sites/1/affected-bookings',
    { hours: { monday: { open: '08:00', close: '12:00' }, tuesday: null, wednesday: null, thursday: null, friday: null, saturday: null, sunday: null }, closed_dates: [] },
  ],
  ['GET', '/api/admin/sites/1/day?date=2026-03-10'],
  ['GET', '/api/admin/audit'],
  ['GET', '/api/admin/export/donations.csv'],
  ['GET', '/api/admin/export/requests.csv'],
  ['GET', '/api/admin/export/units.csv'],
];

const call = (method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('every /api/admin route', () => {
  it('is listed here: the matrix covers every admin route of the API document', () => {
    const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/admin'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .filter((route) => !route.startsWith('HEAD '))
      .sort();
    const tested = ADMIN_ROUTES.map(([method, url]) => `${method} ${url.split('?')[0]!.replace(/\/\d+(\/|$)/, '/{id}$1')}`).sort();
    expect(documented).toEqual(tested);
  });

  it.each(ADMIN_ROUTES)('%s %s answers 401 without a token', async (method, url, payload) => {
    const response = await call(method, url, payload);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Not authenticated', code: 'unauthorized' });
  });

  it.each(ADMIN_ROUTES)('%s %s answers 403 to a donor and to a patient', async (method, url, payload) => {
    for (const user of [donor, patient]) {
      const response = await call(method, url, payload, user.headers);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'You do not have permission to do this', code: 'forbidden' });
    }
  });

  it.each(ADMIN_ROUTES)('%s %s lets an admin through', async (method, url, payload) => {
    const response = await call(method, url, payload, admin.headers);
    expect([401, 403]).not.toContain(response.statusCode);
    expect(response.statusCode).toBeLessThan(500);
  });

  it('answers 401 to a token signed with another secret', async () => {
    const response = await call('GET', '/api/admin/dashboard', undefined, {
      authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwicm9sZSI6IkFETUlOIiwidmVyIjowfQ.c2lnbmF0dXJl',
    });
    expect(response.statusCode).toBe(401);
  });
});
