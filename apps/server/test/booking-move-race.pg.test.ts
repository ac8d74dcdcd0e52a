import { describe, expect, it } from 'vitest';
import { addDays } from '@bloodbank/shared/dates';
import { SITE_MESSAGES, sameHoursEveryDay } from '@bloodbank/shared/sites';
import { createDonor, type TestUser } from './factories';
import { onTwoInstances, type SecondInstance } from './support/second-instance';
import { book, PASSING_SCREENING } from './donation-helpers';
import { testDatabaseUrl, type TestApp } from './test-app';

/**
 * A donor moves today's booking to next week on one instance while staff, on another, record its
 * collection or check it in. Staff's check of the booked day passed before the move committed; the
 * write itself must see the new day and refuse (409), not collect a booking for next week today
 * (found by a concurrency attack: 3 to 7 pairs in 16 on PostgreSQL). The test makes that order
 * happen every time: a lock this test holds on the booking keeps the move waiting, staff's step
 * reads the booking (still today's) and queues behind the move, then the lock is let go.
 */
const TODAY = '2026-03-10';
const NEXT_WEEK = addDays(TODAY, 7);

describe.skipIf(!testDatabaseUrl)('a booking moved while staff record it (PostgreSQL, two instances)', () => {
  let t: TestApp;
  let second: SecondInstance;
  let admin: TestUser;
  onTwoInstances(`${TODAY}T09:00:00Z`, (world) => ({ t, second, admin } = world));

  async function moveWhileStaff(
    step: 'collect' | 'check-in',
    booking: { at?: Record<string, unknown>; moveTo: Record<string, unknown> } = {
      moveTo: { date: NEXT_WEEK },
    },
  ) {
    const donor = await createDonor(t);
    const booked = await book(t, donor, TODAY, booking.at);
    const { holder, other, untilWaiting } = second;
    await holder.query('begin');
    await holder.query('select id from donations where id = $1 for update', [booked]);
    const move = other.inject({
      method: 'POST',
      url: `/api/donations/${booked}/reschedule`,
      headers: donor.headers,
      payload: booking.moveTo,
    });
    await untilWaiting(1, 'donations');
    const staff = t.app.inject({
      method: 'POST',
      url: `/api/admin/donations/${booked}/${step}`,
      headers: admin.headers,
      ...(step === 'collect' ? { payload: PASSING_SCREENING } : {}),
    });
    // Staff's step has found the booking due today and now waits behind the move.
    await untilWaiting(2, 'donations');
    await holder.query('commit');
    const [moved, acted] = await Promise.all([move, staff]);
    const row = await t.db
      .selectFrom('donations')
      .select(['status', 'donation_date', 'slot', 'collected_on', 'checked_in_at'])
      .where('id', '=', booked)
      .executeTakeFirstOrThrow();
    const units = await t.db
      .selectFrom('blood_units')
      .select('id')
      .where('donation_id', '=', booked)
      .execute();
    return { moved, acted, row, units };
  }

  it('refuses the collection with the new day; no unit is made, nothing is credited', async () => {
    const { moved, acted, row, units } = await moveWhileStaff('collect');
    expect(moved.statusCode, moved.body).toBe(200);
    expect(acted.statusCode, acted.body).toBe(409);
    expect(acted.json().detail).toBe(
      `This donation is booked for ${NEXT_WEEK} and can be collected from that day.`,
    );
    expect(row).toMatchObject({ status: 'pending', donation_date: NEXT_WEEK, collected_on: null });
    expect(units).toEqual([]);
  }, 30_000);

  it('refuses the check-in with the new day; the booking is not checked in a week ahead', async () => {
    const { moved, acted, row } = await moveWhileStaff('check-in');
    expect(moved.statusCode, moved.body).toBe(200);
    expect(acted.statusCode, acted.body).toBe(409);
    expect(acted.json().detail).toBe(SITE_MESSAGES.checkInDay(NEXT_WEEK));
    expect(row).toMatchObject({ status: 'pending', donation_date: NEXT_WEEK, checked_in_at: null });
  }, 30_000);

  it('refuses the check-in of a booking moved to a later time the same day: a check-in belongs to its time and place', async () => {
    const site = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sites',
      headers: admin.headers,
      payload: {
        name: 'Race Hall',
        address: '2 Station Road',
        hours: sameHoursEveryDay({ open: '08:00', close: '16:00' }),
        closed_dates: [],
      },
    });
    expect(site.statusCode, site.body).toBe(201);
    const siteId = site.json<{ id: number }>().id;
    const { moved, acted, row } = await moveWhileStaff('check-in', {
      at: { site_id: siteId, slot: '10:00' },
      moveTo: { date: TODAY, site_id: siteId, slot: '11:00' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(acted.statusCode, acted.body).toBe(409);
    expect(acted.json().detail).toBe(SITE_MESSAGES.bookingMoved);
    expect(row).toMatchObject({
      status: 'pending',
      donation_date: TODAY,
      slot: '11:00',
      checked_in_at: null,
    });
  }, 30_000);
});
