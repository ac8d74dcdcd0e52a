import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameHoursEveryDay, type Slot } from '@bloodbank/shared/sites';
import { addDays } from '@bloodbank/shared/dates';
import type { AdminDonation, Paged } from '@bloodbank/shared/admin';
import { donationForm } from '../donation-helpers';
import { createAdmin, createDonor, type TestUser } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

/**
 * Reused answers that depend on the bank's day (db/change-versions.ts keeps them until a table
 * changes): at the bank's midnight nothing changes in the tables, yet "due today" and the booking
 * window move. Each answer asked before midnight must not be given again after it.
 */
const MONDAY = '2026-03-09';
let t: TestApp;
let admin: TestUser;
let siteId: number;
beforeAll(async () => {
  // 23:50 in New York on Monday (04:50 UTC on Tuesday).
  t = await createTestApp({ now: `2026-03-10T03:50:00Z`, env: { TIMEZONE: 'America/New_York' } });
  admin = await createAdmin(t);
  const site = await t.app.inject({
    method: 'POST',
    url: '/api/admin/sites',
    headers: admin.headers,
    payload: { name: 'Town Hall', address: '1 Main Street', hours: sameHoursEveryDay({ open: '08:00', close: '16:00' }) },
  });
  expect(site.statusCode, site.body).toBe(201);
  siteId = site.json<{ id: number }>().id;
});
afterAll(() => t.close());

const get = async <T>(url: string, as: TestUser) => {
  const response = await t.app.inject({ method: 'GET', url, headers: as.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
};

describe("answers that depend on the bank's day", () => {
  it('"bookings due today" takes in the bookings of the new day at midnight', async () => {
    expect(t.clock.today()).toBe(MONDAY);
    const donor = await createDonor(t);
    const tuesday = addDays(MONDAY, 1);
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/donations',
      headers: donor.headers,
      payload: donationForm(tuesday, { site_id: siteId, slot: '10:00' }),
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const due = () => get<Paged<AdminDonation>>('/api/admin/donations?status=pending&due=true', admin);
    expect((await due()).total).toBe(0);

    // 00:05 on Tuesday in New York; no table has changed.
    t.clock.set('2026-03-10T05:05:00Z');
    expect(t.clock.today()).toBe(tuesday);
    expect((await due()).items.map((item) => item.id)).toEqual([booked.json<{ id: number }>().id]);
    expect((await get<Paged<AdminDonation>>('/api/admin/donations?status=pending&due=false', admin)).total).toBe(0);
  });

  it('a date that comes into the booking window at midnight offers its times', async () => {
    t.clock.set('2026-03-11T03:50:00Z'); // 23:50 on Tuesday in New York
    const donor = await createDonor(t);
    // 91 days after Tuesday: one day past the window, then inside it after midnight.
    const date = addDays('2026-03-10', 91);
    const slots = () => get<Slot[]>(`/api/sites/${siteId}/slots?date=${date}`, donor);
    expect(await slots()).toEqual([]);
    t.clock.set('2026-03-11T04:05:00Z');
    expect(t.clock.today()).toBe('2026-03-11');
    expect((await slots()).map((slot) => slot.time)).toContain('10:00');
  });
});
