import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migratedTo } from '../../../test/support/migrated-to';

/**
 * Migration 2026-11-25-0002 on a database holding what the product stored before the lifecycle:
 * approved donations become released, rewards of bookings are taken back, levels follow the growing
 * spans, and (SQLite) the rebuilt tables keep their rows, indexes, foreign keys and triggers.
 */

describe('migration 2026-11-25-0002 (donation lifecycle)', () => {
  it('turns approved donations into released ones, takes back booking rewards and regrows levels', async () => {
    const previous = await migratedTo('2026-11-25-0001-change-counters-everywhere');
    const db = previous.db;

    const at = '2026-06-01T10:00:00.000Z';
    const donor = await db
      .insertInto('users')
      .values({ username: 'legacy', username_key: 'legacy', password_hash: 'x', role: 'DONOR', bloodgroup: 'A+', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const donation = (status: string, date: string) =>
      db
        .insertInto('donations')
        .values({ donor_id: donor.id, bloodgroup: 'A+', units: 1, donation_date: date, disease: 'None', status, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
    const approved = await donation('approved', '2026-06-01');
    const pending = await donation('pending', '2026-12-01');
    await db
      .insertInto('blood_units')
      .values({ bloodgroup: 'A+', source: 'donation', donation_id: approved.id, collected_on: '2026-06-01', expires_on: '2026-07-13', status: 'available', created_at: at })
      .execute();
    for (const rewarded of [approved, pending]) {
      await db.insertInto('game_rewards').values({ donation_id: rewarded.id, donor_id: donor.id, points: 100, rewarded_at: at }).execute();
    }
    // 300 points was level 4 under the old 100-points-a-level rule; it is level 3 now (300-599).
    await db
      .insertInto('game_profiles')
      .values({ donor_id: donor.id, points: 300, level: 4, donation_streak: 2, points_reached_at: at, created_at: at, updated_at: at })
      .execute();

    await previous.migrateToLatest();

    const donations = await db.selectFrom('donations').select(['id', 'status', 'collected_on']).orderBy('id').execute();
    expect(donations).toEqual([
      { id: approved.id, status: 'released', collected_on: '2026-06-01' },
      { id: pending.id, status: 'pending', collected_on: null },
    ]);
    const rewards = await db.selectFrom('game_rewards').select(['donation_id', 'seen_at']).execute();
    expect(rewards).toEqual([{ donation_id: approved.id, seen_at: at }]);
    const profile = await db.selectFrom('game_profiles').select('level').executeTakeFirstOrThrow();
    expect(Number(profile.level)).toBe(3);

    // The widened checks take the new states and still refuse unknown ones.
    await db.updateTable('donations').set({ status: 'collected' }).where('id', '=', pending.id).execute();
    await expect(db.updateTable('donations').set({ status: 'approved' }).where('id', '=', pending.id).execute()).rejects.toThrow();
    const unit = await db.selectFrom('blood_units').select(['id', 'status', 'hold_reason']).executeTakeFirstOrThrow();
    expect(unit).toMatchObject({ status: 'available', hold_reason: null });
    await db.updateTable('blood_units').set({ status: 'quarantined', hold_reason: 'lookback' }).where('id', '=', unit.id).execute();
    // A quarantined unit must say why, and only a quarantined unit may.
    await expect(db.updateTable('blood_units').set({ hold_reason: null }).where('id', '=', unit.id).execute()).rejects.toThrow();
    await expect(
      db.updateTable('blood_units').set({ status: 'available', hold_reason: 'testing' }).where('id', '=', unit.id).execute(),
    ).rejects.toThrow();

    // The stock trigger still follows the units: the held unit left the stock, its release brings it back.
    const stock = () =>
      db.selectFrom('blood_stock').select(sql<number>`coalesce(sum(units), 0)`.as('units')).executeTakeFirstOrThrow();
    expect(Number((await stock()).units)).toBe(0);
    await db.updateTable('blood_units').set({ status: 'available', hold_reason: null }).where('id', '=', unit.id).execute();
    expect(Number((await stock()).units)).toBe(1);

    // Foreign keys still hold on the rebuilt tables.
    await expect(
      db.insertInto('blood_units').values({ bloodgroup: 'A+', source: 'donation', donation_id: 999_999, collected_on: '2026-06-01', expires_on: '2026-07-13', status: 'available', created_at: at }).execute(),
    ).rejects.toThrow();
    // The new tables are counted like the others.
    const before = await db.selectFrom('change_counters').select(sql<number>`sum(deferrals)`.as('n')).executeTakeFirstOrThrow();
    await db
      .insertInto('deferrals')
      .values({ donor_id: donor.id, type: 'permanent', until: null, reason: 'r', source: 'manual', created_by: donor.id, created_at: at })
      .execute();
    const after = await db.selectFrom('change_counters').select(sql<number>`sum(deferrals)`.as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBeGreaterThan(Number(before.n));
  });
});
