import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql, type Compilable } from 'kysely';
import { createTestApp, type TestApp } from '../../../test/test-app';
import {
  countRewardedDonationsQuery,
  earnedAchievementsQuery,
  leaderboardQuery,
  profileOfDonorQuery,
} from './game.repository';

/**
 * The leaderboard and game-state reads must stay index lookups as the donor base grows. This file
 * builds a database of 100,000 donors, each with a profile, a rewarded donation and an achievement,
 * refreshes the planner statistics and asks each engine for its plan of the very queries the routes
 * run (no planner switches: the plans are the ones production would get).
 */
const DONORS = 100_000;
const AT = '2026-01-01T00:00:00.000Z';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: AT });
  const numbers =
    t.engine === 'sqlite'
      ? sql`(with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${sql.lit(DONORS)}) select n from seq)`
      : sql`(select generate_series(1, ${sql.lit(DONORS)}) as n)`;
  await sql`
    insert into users (username, username_key, password_hash, role, first_name, last_name, bloodgroup, created_at, updated_at)
    select 'plan' || n, 'plan' || n, 'x', 'DONOR', 'Donor', 'N' || n, 'O+', ${AT}, ${AT} from ${numbers} as numbers`.execute(
    t.db,
  );
  // Points spread over 0..4999 so the order is not trivial.
  await sql`
    insert into game_profiles (donor_id, points, level, donation_streak, points_reached_at, created_at, updated_at)
    select id, (id * 7919) % 5000, ((id * 7919) % 5000) / 100 + 1, 1, ${AT}, ${AT}, ${AT} from users`.execute(
    t.db,
  );
  await sql`
    insert into donations (donor_id, bloodgroup, units, donation_date, disease, status, created_at)
    select id, 'O+', 1, '2025-12-01', 'None', 'released', ${AT} from users`.execute(t.db);
  await sql`insert into game_rewards (donation_id, donor_id, points, rewarded_at) select id, donor_id, 100, ${AT} from donations`.execute(
    t.db,
  );
  await sql`
    insert into earned_achievements (donor_id, achievement_id, earned_at)
    select users.id, achievements.id, ${AT} from users, achievements where achievements.code = 'first_hero_badge'`.execute(
    t.db,
  );
  await sql`analyze`.execute(t.db);
}, 120_000);
afterAll(() => t.close());

async function planOf(query: Compilable): Promise<string> {
  const compiled = query.compile();
  const explain = t.engine === 'sqlite' ? 'explain query plan ' : 'explain ';
  const result = await t.db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]),
  );
  return result.rows.map((row) => String(t.engine === 'sqlite' ? row.detail : row['QUERY PLAN'])).join('\n');
}

/** A full read of a table that grows with the donors: SQLite says "SCAN t" without an index, PostgreSQL "Seq Scan on t". */
function fullScansIn(plan: string, tables: string[]): string[] {
  return plan
    .split('\n')
    .filter((line) =>
      tables.some((table) =>
        new RegExp(
          t.engine === 'sqlite'
            ? `^\\s*SCAN ${table}(?! USING (COVERING )?INDEX)\\b`
            : `Seq Scan on ${table}\\b`,
        ).test(line),
      ),
    );
}

const GROWING_TABLES = ['game_profiles', 'users', 'donations', 'game_rewards', 'earned_achievements'];

describe(`query plans on ${DONORS.toLocaleString('en')} donors`, () => {
  it('has them all', async () => {
    const row = await t.db
      .selectFrom('game_profiles')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(row.count)).toBe(DONORS);
  });

  it('reads the leaderboard by walking game_profiles_leaderboard_idx, without scanning or sorting the profiles', async () => {
    for (const limit of [10, 100]) {
      const plan = await planOf(leaderboardQuery(t.db, limit));
      expect(plan).toContain('game_profiles_leaderboard_idx');
      expect(fullScansIn(plan, GROWING_TABLES), plan).toEqual([]);
      if (t.engine === 'sqlite') expect(plan).not.toContain('TEMP B-TREE');
    }
  });

  it('answers the leaderboard query in the order of the index', async () => {
    const rows = await leaderboardQuery(t.db, 3).execute();
    expect(rows.map((row) => row.points)).toEqual([4999, 4999, 4999]);
    expect(rows[0]!.id).toBeLessThan(rows[1]!.id);
  });

  it("reads a donor's game state (profile, rewarded donations, earned achievements) by index lookups", async () => {
    const donorId = 54_321;
    for (const query of [
      profileOfDonorQuery(t.db, donorId),
      countRewardedDonationsQuery(t.db, donorId),
      earnedAchievementsQuery(t.db, donorId),
    ]) {
      const plan = await planOf(query);
      expect(fullScansIn(plan, GROWING_TABLES), plan).toEqual([]);
    }
  });
});
