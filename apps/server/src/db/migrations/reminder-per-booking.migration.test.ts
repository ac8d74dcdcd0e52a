import { describe, expect, it } from 'vitest';
import { migratedTo } from '../../../test/support/migrated-to';

/**
 * Migration 2026-11-28-0004 on bookings stored before it: those the last daily run reminded (the
 * day after it, or earlier and still pending) are marked reminded, so the new per-booking step does
 * not remind them twice; later ones are left to it.
 */

describe('migration 2026-11-28-0004 (a reminder per booking)', () => {
  it('marks the bookings the last daily run reminded, and only those', async () => {
    const previous = await migratedTo('2026-11-28-0003-requests-by-needed-date');
    const db = previous.db;
    const at = '2026-11-28T00:05:00.000Z';
    await db
      .insertInto('daily_runs')
      .values([
        { day: '2026-11-27', started_at: at, finished_at: at },
        { day: '2026-11-28', started_at: at, finished_at: at },
      ])
      .execute();
    // One pending booking per donor: a donor each.
    let donors = 0;
    const donor = async () =>
      (
        await db
          .insertInto('users')
          .values({
            username: `d${++donors}`,
            username_key: `d${donors}`,
            password_hash: 'x',
            role: 'DONOR',
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id as number;
    const booking = async (date: string, status = 'pending', createdAt = at) => ({
      donor_id: await donor(),
      bloodgroup: 'O+',
      donation_date: date,
      units: 1,
      disease: 'None',
      status,
      created_at: createdAt,
    });
    const bookings = [];
    for (const [date, status, createdAt] of [
      ['2026-11-29'],
      ['2026-11-30'],
      ['2026-11-28'],
      ['2026-11-29', 'cancelled'],
      // Booked for tomorrow after the day's run: never reminded, left to the new step.
      ['2026-11-29', 'pending', '2026-11-28T10:00:00.000Z'],
    ] as const) {
      bookings.push(await booking(date, status, createdAt));
    }
    await db.insertInto('donations').values(bookings).execute();

    await previous.migrateToLatest();

    const rows = await db
      .selectFrom('donations')
      .select(['donation_date', 'status', 'reminded_for'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { donation_date: '2026-11-29', status: 'pending', reminded_for: '2026-11-29' },
      { donation_date: '2026-11-30', status: 'pending', reminded_for: null },
      { donation_date: '2026-11-28', status: 'pending', reminded_for: '2026-11-28' },
      { donation_date: '2026-11-29', status: 'cancelled', reminded_for: null },
      { donation_date: '2026-11-29', status: 'pending', reminded_for: null },
    ]);
  });
});
