import { describe, expect, it } from 'vitest';
import { sameHoursEveryDay } from '@bloodbank/shared/sites';
import { addDays } from '@bloodbank/shared/dates';
import { createDonor, type TestUser } from './factories';
import { onTwoInstances, type SecondInstance } from './support/second-instance';
import { donationForm } from './donation-helpers';
import { testDatabaseUrl, type TestApp } from './test-app';

/**
 * A deferral recorded on one instance while the donor books on another (decision 0016): the
 * booking's eligibility check must not miss the deferral, nor the deferral miss the booking. The
 * test makes the worst order happen every time: the booking has read the donor's deferrals (none
 * yet) and then waits, on a lock this test holds on the site, while the other instance records the
 * deferral; then the booking is let go. PostgreSQL only: SQLite's writes take turns.
 */
const TODAY = '2026-03-10';
const EVERY_DAY = sameHoursEveryDay({ open: '08:00', close: '16:00' });

describe.skipIf(!testDatabaseUrl)('a deferral racing a booking on another instance (PostgreSQL)', () => {
  let t: TestApp;
  let second: SecondInstance;
  let admin: TestUser;
  onTwoInstances(`${TODAY}T09:00:00Z`, (world) => ({ t, second, admin } = world));

  it('the booking that passed its check before the deferral committed is cancelled by it, never left pending', async () => {
    const site = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sites',
      headers: admin.headers,
      payload: { name: 'Race Hall', address: '2 Station Road', hours: EVERY_DAY, closed_dates: [] },
    });
    expect(site.statusCode, site.body).toBe(201);
    const siteId = site.json<{ id: number }>().id;
    const donor = await createDonor(t);
    const bookedFor = addDays(TODAY, 5);

    const { holder, other, untilWaiting } = second;
    await holder.query('begin');
    await holder.query('select id from sites where id = $1 for update', [siteId]);
    const booking = t.app.inject({
      method: 'POST',
      url: '/api/donations',
      headers: donor.headers,
      payload: donationForm(bookedFor, { site_id: siteId, slot: '10:00' }),
    });
    // The booking has checked the donor's deferrals and now waits for the site.
    await untilWaiting(1);
    const deferral = other.inject({
      method: 'POST',
      url: `/api/admin/donors/${donor.id}/deferrals`,
      headers: admin.headers,
      payload: { type: 'temporary', until: addDays(TODAY, 30), reason: 'Started antibiotics' },
    });
    // Give the deferral every chance to commit before the booking goes on (without the donor's
    // lock it did, and found no booking to cancel).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await holder.query('commit');

    const [booked, deferred] = await Promise.all([booking, deferral]);
    expect(booked.statusCode, booked.body).toBe(201);
    expect(deferred.statusCode, deferred.body).toBe(201);
    const row = await t.db
      .selectFrom('donations')
      .select(['status'])
      .where('id', '=', booked.json<{ id: number }>().id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('cancelled');
    const summary = await t.app.inject({ method: 'GET', url: '/api/donor/summary', headers: donor.headers });
    expect(summary.json()).toMatchObject({ pending: 0, deferred: { type: 'temporary', until: addDays(TODAY, 30) } });
  }, 30_000);
});
