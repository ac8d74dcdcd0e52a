import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DonationCompleteResult, GameState, LeaderboardEntry } from '@bloodbank/shared/game';
import { addDays } from '@bloodbank/shared/dates';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient, type TestUser } from '../../../test/factories';
import { book, collect, donateAndCollect, donationForm, setToday } from '../../../test/donation-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-01-05T09:00:00Z' });
});
afterAll(() => t.close());
beforeEach(() => setToday(t, '2026-01-05'));

const call = (donor: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: donor.headers, ...(payload ? { payload } : {}) });
const stateOf = async (donor: TestUser) => {
  const response = await call(donor, 'GET', '/api/game/state');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<GameState>();
};
const codesOf = (result: { achievements: { achievement: { icon: string } }[] }) =>
  result.achievements.map((earned) => earned.achievement.icon);

/** Donations `gaps` days apart starting on `start`, each booked, collected and its reward shown. */
async function donateSeries(
  donor: TestUser,
  start: string,
  gaps: number[],
): Promise<DonationCompleteResult[]> {
  const results = [await donateAndCollect(t, donor, start)];
  let date = start;
  for (const gap of gaps) {
    date = addDays(date, gap);
    results.push(await donateAndCollect(t, donor, date));
  }
  return results;
}

describe('who may use the game endpoints', () => {
  const donorOnly = [
    { method: 'GET' as const, url: '/api/game/profiles/me' },
    { method: 'POST' as const, url: '/api/game/profiles' },
    { method: 'GET' as const, url: '/api/game/state' },
    { method: 'POST' as const, url: '/api/game/donation-complete' },
    { method: 'GET' as const, url: '/api/game/achievements/me' },
  ];
  const anySignedIn = [
    { method: 'GET' as const, url: '/api/game/leaderboard' },
    { method: 'GET' as const, url: '/api/game/achievements' },
  ];

  it.each([...donorOnly, ...anySignedIn])('$method $url answers 401 without a token', async (endpoint) => {
    const response = await t.app.inject(endpoint);
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe('Not authenticated');
  });

  it.each(donorOnly)('$method $url answers 403 to patients and admins', async (endpoint) => {
    for (const user of [await createPatient(t), await createAdmin(t)]) {
      const response = await t.app.inject({ ...endpoint, headers: user.headers });
      expect(response.statusCode).toBe(403);
    }
    expect(await t.db.selectFrom('game_profiles').select('id').execute()).toEqual([]);
  });

  it.each(anySignedIn)('$method $url answers 200 to donors, patients and admins', async (endpoint) => {
    for (const user of [await createDonor(t), await createPatient(t), await createAdmin(t)]) {
      const response = await t.app.inject({ ...endpoint, headers: user.headers });
      expect(response.statusCode).toBe(200);
    }
  });
});

describe('game profiles', () => {
  it('has no profile at first: profile and state answer 404', async () => {
    const donor = await createDonor(t);
    for (const url of ['/api/game/profiles/me', '/api/game/state']) {
      const response = await call(donor, 'GET', url);
      expect(response.statusCode).toBe(404);
      expect(response.json().detail).toBe('Game profile not found. Create one to start playing.');
    }
  });

  it('creates a profile from history, ignoring the points, level and streak the client sends', async () => {
    const donor = await createDonor(t);
    const created = await call(donor, 'POST', '/api/game/profiles', {
      points: 5000,
      level: 51,
      donation_streak: 9,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: expect.any(Number), points: 0, level: 1, donation_streak: 0 });

    const me = await call(donor, 'GET', '/api/game/profiles/me');
    expect(me.json()).toEqual(created.json());
    expect(await stateOf(donor)).toEqual({
      profile: created.json(),
      level_start_points: 0,
      next_level_points: 100,
      total_donations: 0,
      achievements: [],
    });
  });

  it('creates a profile with no body at all, and refuses a second one with 409', async () => {
    const donor = await createDonor(t);
    expect((await call(donor, 'POST', '/api/game/profiles')).statusCode).toBe(201);
    const again = await call(donor, 'POST', '/api/game/profiles', { points: 100 });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('You already have a game profile.');
    expect((await call(donor, 'GET', '/api/game/profiles/me')).json()).toMatchObject({ points: 0, level: 1 });
  });
});

describe('POST /api/game/donation-complete', () => {
  it('answers 409 when the donor has no donation to reward, and creates no profile', async () => {
    const donor = await createDonor(t);
    const response = await call(donor, 'POST', '/api/game/donation-complete');
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toBe('No completed donation to reward');
    expect((await call(donor, 'GET', '/api/game/profiles/me')).statusCode).toBe(404);
  });

  it('returns the rewards of a collected donation once: +100 and First Time Hero', async () => {
    const donor = await createDonor(t);
    const booked = await book(t, donor, '2026-01-05');
    // Nothing for the booking itself (PRODUCT.md 3.4).
    expect((await call(donor, 'POST', '/api/game/donation-complete')).statusCode).toBe(409);
    expect((await collect(t, booked)).statusCode).toBe(200);

    // Points in the body are ignored.
    const first = await call(donor, 'POST', '/api/game/donation-complete', { points: 100000 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      profile: { id: expect.any(Number), points: 200, level: 2, donation_streak: 1 },
      points_credited: 100,
      achievements: [
        {
          id: expect.any(Number),
          achievement_id: expect.any(Number),
          achievement: {
            id: expect.any(Number),
            name: 'First Time Hero',
            description: 'Complete your first blood donation',
            points_reward: 100,
            icon: 'first_hero_badge',
          },
          earned_at: '2026-01-05T09:00:00.000Z',
        },
      ],
    });

    const again = await call(donor, 'POST', '/api/game/donation-complete');
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('No completed donation to reward');

    const state = await stateOf(donor);
    expect(state).toMatchObject({
      profile: { points: 200, level: 2, donation_streak: 1 },
      level_start_points: 100,
      next_level_points: 300,
      total_donations: 1,
    });
    expect(state.achievements).toEqual(first.json<DonationCompleteResult>().achievements);
    const mine = await call(donor, 'GET', '/api/game/achievements/me');
    expect(mine.json()).toEqual(state.achievements);
  });

  it('returns the rewards exactly once when called twice at the same time', async () => {
    const donor = await createDonor(t);
    expect((await collect(t, await book(t, donor, '2026-01-05'))).statusCode).toBe(200);
    const responses = await Promise.all([
      call(donor, 'POST', '/api/game/donation-complete'),
      call(donor, 'POST', '/api/game/donation-complete'),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(responses.find((response) => response.statusCode === 409)?.json().detail).toBe(
      'No completed donation to reward',
    );
    expect((await stateOf(donor)).profile).toMatchObject({ points: 200, level: 2 });
    const rewards = await t.db
      .selectFrom('game_rewards')
      .select('points')
      .where('donor_id', '=', donor.id)
      .execute();
    expect(rewards).toEqual([{ points: 100 }]);
  });

  it('returns the rewards of several collections not seen yet together, then nothing', async () => {
    const donor = await createDonor(t);
    expect((await collect(t, await book(t, donor, '2026-01-05'))).statusCode).toBe(200);
    setToday(t, '2026-04-06');
    expect((await collect(t, await book(t, donor, '2026-04-06'))).statusCode).toBe(200);
    const together = await call(donor, 'POST', '/api/game/donation-complete');
    expect(together.json()).toMatchObject({ profile: { points: 300, level: 3 }, points_credited: 200 });
    expect(codesOf(together.json())).toEqual(['first_hero_badge']);
    expect((await call(donor, 'POST', '/api/game/donation-complete')).statusCode).toBe(409);
    expect((await stateOf(donor)).total_donations).toBe(2);
  });

  it('records "achievement unlocked" in the donor\'s activity feed', async () => {
    const donor = await createDonor(t);
    await donateAndCollect(t, donor, '2026-01-05');
    const summary = await call(donor, 'GET', '/api/donor/summary');
    expect(
      summary
        .json()
        .activities.map((activity: { kind: string; message: string }) => [activity.kind, activity.message]),
    ).toEqual([
      ['achievement_earned', 'Achievement unlocked: First Time Hero (+100 points).'],
      ['donation_collected', 'Your donation of 5 Jan was collected: +100 points. It is now being tested.'],
      ['donation_submitted', 'You booked a donation of 1 unit for 5 Jan.'],
    ]);
  });
});

describe('points, levels, streaks and achievements', () => {
  it('earns achievements at 1, 3, 5 and 10 donations and the streak badge at a streak of 3', async () => {
    const donor = await createDonor(t);
    const results = await donateSeries(donor, '2026-01-05', Array(9).fill(90));

    expect(results.map(codesOf)).toEqual([
      ['first_hero_badge'],
      [],
      ['regular_hero_badge', 'streak_badge'],
      [],
      ['super_hero_badge'],
      [],
      [],
      [],
      [],
      ['master_badge'],
    ]);
    // 100 per donation + rewards: 100 (1st), 300 (3), 500 (streak 3), 500 (5), 1000 (10)
    expect(results.map((result) => result.profile.points)).toEqual([
      200, 300, 1200, 1300, 1900, 2000, 2100, 2200, 2300, 3400,
    ]);
    // Level n spans 100 x n points: 100, 300, 600, 1000, 1500, 2100, 2800, 3600 start levels 2 to 9.
    expect(results.map((result) => result.profile.level)).toEqual([2, 3, 5, 5, 6, 6, 7, 7, 7, 8]);
    expect(results.map((result) => result.profile.donation_streak)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    const state = await stateOf(donor);
    expect(state).toMatchObject({
      profile: { points: 3400, level: 8, donation_streak: 10 },
      level_start_points: 2800,
      next_level_points: 3600,
      total_donations: 10,
    });
    expect(
      state.achievements.map((earned) => [earned.achievement.name, earned.achievement.points_reward]),
    ).toEqual([
      ['First Time Hero', 100],
      ['Regular Hero', 300],
      ['Consistent Donor', 500],
      ['Super Hero', 500],
      ['Blood Donation Master', 1000],
    ]);
  });

  it('keeps the streak with donations exactly 180 days apart', async () => {
    const donor = await createDonor(t);
    const results = await donateSeries(donor, '2026-01-05', [180, 180]);
    expect(results.map((result) => result.profile.donation_streak)).toEqual([1, 2, 3]);
    expect(codesOf(results[2]!)).toEqual(['regular_hero_badge', 'streak_badge']);
  });

  it('breaks the streak after more than 180 days: 3 donations but no streak badge', async () => {
    const donor = await createDonor(t);
    const results = await donateSeries(donor, '2026-01-05', [90, 181]);
    expect(results.map((result) => result.profile.donation_streak)).toEqual([1, 2, 1]);
    expect(codesOf(results[2]!)).toEqual(['regular_hero_badge']);
    // 300 + First Time Hero 100 + Regular Hero 300
    expect(results[2]!.profile).toMatchObject({ points: 700, level: 4 });
  });

  it('keeps an earned streak badge when a later donation starts a new streak', async () => {
    const donor = await createDonor(t);
    const results = await donateSeries(donor, '2026-01-05', [90, 90, 400]);
    expect(results[3]!.profile).toMatchObject({ donation_streak: 1, points: 1300 });
    expect(codesOf(await stateOf(donor))).toEqual(['first_hero_badge', 'regular_hero_badge', 'streak_badge']);
  });

  it('cannot be farmed with bookings: nothing is credited before a collection', async () => {
    const donor = await createDonor(t);
    await call(donor, 'POST', '/api/donations', donationForm('2026-01-10'));
    expect((await call(donor, 'POST', '/api/donations', donationForm('2026-01-11'))).statusCode).toBe(409);
    expect((await call(donor, 'POST', '/api/game/donation-complete')).statusCode).toBe(409);
    expect((await call(donor, 'GET', '/api/game/state')).statusCode).toBe(404);
  });
});

describe('levels at each boundary (PRODUCT.md 3.4: level n spans 100 x n, starts at 50 x n x (n - 1))', () => {
  // Every real reward is a multiple of 100, so points never land one short of a level. This app
  // reprices First Time Hero so that one collection lands on each side of a level's start, through
  // the real path: collection, recomputation, the stored level and the game state.
  let levels: TestApp;
  beforeAll(async () => {
    levels = await createTestApp({ now: '2026-01-05T09:00:00Z' });
  });
  afterAll(() => levels.close());

  it.each([
    { points: 99, level: 1, start: 0, next: 100 },
    { points: 100, level: 2, start: 100, next: 300 },
    { points: 299, level: 2, start: 100, next: 300 },
    { points: 300, level: 3, start: 300, next: 600 },
    { points: 599, level: 3, start: 300, next: 600 },
    { points: 600, level: 4, start: 600, next: 1000 },
  ])('$points points: level $level, from $start to $next', async ({ points, level, start, next }) => {
    await levels.db
      .updateTable('achievements')
      .set({ points_reward: points - 100 })
      .where('code', '=', 'first_hero_badge')
      .execute();
    const donor = await createDonor(levels);
    const reward = await donateAndCollect(levels, donor, '2026-01-05');
    expect(reward).toMatchObject({ profile: { points, level }, points_credited: 100 });

    const response = await levels.app.inject({
      method: 'GET',
      url: '/api/game/state',
      headers: donor.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<GameState>()).toMatchObject({
      profile: { points, level },
      level_start_points: start,
      next_level_points: next,
    });
  });
});

describe('GET /api/game/achievements', () => {
  it("lists the catalogue with the older server's names and rewards, icon key = rule", async () => {
    const patient = await createPatient(t);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/game/achievements',
      headers: patient.headers,
    });
    expect(response.json().map(({ id: _id, ...achievement }: { id: number }) => achievement)).toEqual([
      {
        name: 'First Time Hero',
        description: 'Complete your first blood donation',
        points_reward: 100,
        icon: 'first_hero_badge',
      },
      {
        name: 'Regular Hero',
        description: 'Complete 3 blood donations',
        points_reward: 300,
        icon: 'regular_hero_badge',
      },
      {
        name: 'Super Hero',
        description: 'Complete 5 blood donations',
        points_reward: 500,
        icon: 'super_hero_badge',
      },
      {
        name: 'Blood Donation Master',
        description: 'Complete 10 blood donations',
        points_reward: 1000,
        icon: 'master_badge',
      },
      {
        name: 'Consistent Donor',
        description: 'Maintain a donation streak of 3',
        points_reward: 500,
        icon: 'streak_badge',
      },
    ]);
  });

  it('lists an empty earned list for a donor who has earned nothing', async () => {
    const donor = await createDonor(t);
    expect((await call(donor, 'GET', '/api/game/achievements/me')).json()).toEqual([]);
  });
});

describe('GET /api/game/leaderboard', () => {
  const board = async (user: TestUser, query = '') => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/game/leaderboard${query}`,
      headers: user.headers,
    });
    return response;
  };

  it('ranks by points, then by who reached them first; names are first name and last initial', async () => {
    // A fresh app so the board holds only this test's donors.
    const own = await createTestApp({ now: '2026-01-05T09:00:00Z' });
    const saved = t;
    t = own;
    try {
      const asha = await createDonor(t, { first_name: 'Asha', last_name: 'kumar' });
      const ravi = await createDonor(t, { first_name: 'Ravi', last_name: 'Shah' });
      const meena = await createDonor(t, { first_name: 'Meena', last_name: 'Iyer' });
      const lone = await createDonor(t, { first_name: 'Lone', last_name: '' });

      // Ravi has the oldest profile, but Asha reaches 200 points before him.
      setToday(t, '2026-01-05', '08:00:00');
      await call(ravi, 'POST', '/api/game/profiles');
      await call(lone, 'POST', '/api/game/profiles');
      await donateAndCollect(t, asha, '2026-01-06');
      await donateAndCollect(t, ravi, '2026-01-07');
      await donateSeries(meena, '2026-01-08', [90]);

      const response = await board(await createPatient(t));
      expect(response.statusCode).toBe(200);
      const entries = response.json<LeaderboardEntry[]>();
      expect(entries.map(({ user_id, name, level, points }) => ({ user_id, name, level, points }))).toEqual([
        { user_id: meena.id, name: 'Meena I.', level: 3, points: 300 },
        { user_id: asha.id, name: 'Asha K.', level: 2, points: 200 },
        { user_id: ravi.id, name: 'Ravi S.', level: 2, points: 200 },
        { user_id: lone.id, name: 'Lone', level: 1, points: 0 },
      ]);
      const profiles = await t.db.selectFrom('game_profiles').select(['id', 'donor_id']).execute();
      expect(entries.map((entry) => entry.id)).toEqual(
        entries.map((entry) => profiles.find((profile) => profile.donor_id === entry.user_id)?.id),
      );

      // A deactivated donor leaves the board.
      await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', asha.id).execute();
      expect((await board(ravi)).json<LeaderboardEntry[]>().map((entry) => entry.name)).toEqual([
        'Meena I.',
        'Ravi S.',
        'Lone',
      ]);
    } finally {
      t = saved;
      await own.close();
    }
  });

  it('returns 10 entries by default and honours limits from 1 to 100', async () => {
    // Above every other donor of this file, so the top of the board is known.
    const donor = await createDonor(t);
    const at = '2026-01-01T00:00:00.000Z';
    for (let index = 0; index < 105; index += 1) {
      const player = await createDonor(t);
      await t.db
        .insertInto('game_profiles')
        .values({
          donor_id: player.id,
          points: 5000 + index * 10,
          level: Math.floor((5000 + index * 10) / 100) + 1,
          donation_streak: 0,
          points_reached_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const byDefault = (await board(donor)).json<LeaderboardEntry[]>();
    expect(byDefault).toHaveLength(10);
    expect(byDefault.map((entry) => entry.points)).toEqual([
      6040, 6030, 6020, 6010, 6000, 5990, 5980, 5970, 5960, 5950,
    ]);
    expect((await board(donor, '?limit=1')).json()).toHaveLength(1);
    expect((await board(donor, '?limit=100')).json()).toHaveLength(100);
  });

  it.each(['0', '101', '-1', '2.5', 'ten'])('refuses limit=%s with 422', async (limit) => {
    const donor = await createDonor(t);
    const response = await board(donor, `?limit=${limit}`);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toHaveProperty('limit');
  });

  it('says which bounds apply', async () => {
    const donor = await createDonor(t);
    expect((await board(donor, '?limit=101')).json().detail).toBe('limit must be between 1 and 100');
    expect((await board(donor, '?limit=0')).json().detail).toBe('limit must be between 1 and 100');
  });
});
