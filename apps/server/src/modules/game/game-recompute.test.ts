import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameState, LeaderboardEntry } from '@bloodbank/shared/game';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createDonor, type TestUser } from '../../../test/factories';
import { donateRewardAndApprove, donationForm, setToday } from '../../../test/donation-helpers';
import { donationRecordOf } from './game-rules';
import { recomputeGameState } from './recompute-game-state';

/**
 * The reversal a rejected donation needs (PRODUCT.md 3.4), as the admin's reject endpoint will
 * run it: the donation's status changes and the game is recomputed in the same transaction.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-01-05T09:00:00Z' });
});
afterAll(() => t.close());

const REJECTED_AT = '2027-01-01T10:00:00.000Z';

function rejectAndRecompute(donationId: number, donorId: number, at = REJECTED_AT) {
  return t.db.transaction().execute(async (trx) => {
    const rejected = await trx
      .updateTable('donations')
      .set({ status: 'rejected', rejection_reason: 'Test', decided_at: at })
      .where('id', '=', donationId)
      .executeTakeFirst();
    expect(Number(rejected.numUpdatedRows)).toBe(1);
    return recomputeGameState(trx, donorId, at);
  });
}

async function stateOf(donor: TestUser): Promise<GameState> {
  const response = await t.app.inject({ method: 'GET', url: '/api/game/state', headers: donor.headers });
  expect(response.statusCode).toBe(200);
  return response.json<GameState>();
}

async function donationIdsOf(donorId: number): Promise<number[]> {
  const rows = await t.db
    .selectFrom('donations')
    .select('id')
    .where('donor_id', '=', donorId)
    .orderBy('donation_date')
    .execute();
  return rows.map((row) => row.id);
}

const profileRow = (donorId: number) =>
  t.db.selectFrom('game_profiles').selectAll().where('donor_id', '=', donorId).executeTakeFirstOrThrow();

describe('recomputeGameState after a rejection', () => {
  it('takes back the points, shortens the streak and withdraws the achievements whose rule no longer holds', async () => {
    const donor = await createDonor(t);
    for (const date of ['2026-01-05', '2026-04-05', '2026-07-04'])
      await donateRewardAndApprove(t, donor, date);
    expect((await stateOf(donor)).profile).toMatchObject({ points: 1200, level: 13, donation_streak: 3 });

    const [, , latest] = await donationIdsOf(donor.id);
    const result = await rejectAndRecompute(latest!, donor.id);

    expect(result.withdrawn.map((achievement) => achievement.name)).toEqual([
      'Regular Hero',
      'Consistent Donor',
    ]);
    expect(result.earned).toEqual([]);
    // 2 donations + First Time Hero
    expect(result.profile).toEqual({ id: expect.any(Number), points: 300, level: 4, donation_streak: 2 });

    const state = await stateOf(donor);
    expect(state).toMatchObject({ profile: result.profile, next_level_points: 400, total_donations: 2 });
    expect(state.achievements.map((earned) => earned.achievement.name)).toEqual(['First Time Hero']);

    const feed = await t.app.inject({ method: 'GET', url: '/api/donor/summary', headers: donor.headers });
    const withdrawnMessages = feed
      .json()
      .activities.filter((activity: { kind: string }) => activity.kind === 'achievement_withdrawn')
      .map((activity: { message: string }) => activity.message);
    expect(withdrawnMessages.sort()).toEqual([
      'Achievement withdrawn: Consistent Donor, after a donation was not approved.',
      'Achievement withdrawn: Regular Hero, after a donation was not approved.',
    ]);
  });

  it('breaks the streak when the rejected donation was the bridge between two others', async () => {
    const donor = await createDonor(t);
    for (const date of ['2026-01-05', '2026-06-01', '2026-10-20'])
      await donateRewardAndApprove(t, donor, date);
    expect((await stateOf(donor)).profile).toMatchObject({ donation_streak: 3, points: 1200 });

    const [, middle] = await donationIdsOf(donor.id);
    const result = await rejectAndRecompute(middle!, donor.id);
    // 2026-01-05 -> 2026-10-20 is 288 days: over the 180-day window.
    expect(result.profile).toMatchObject({ donation_streak: 1, points: 300, level: 4 });
    expect(result.withdrawn.map((achievement) => achievement.name)).toEqual([
      'Regular Hero',
      'Consistent Donor',
    ]);
  });

  it('reverses the reward of a pending donation rejected after the donor claimed it', async () => {
    const donor = await createDonor(t);
    setToday(t, '2026-01-05');
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/api/donations',
      headers: donor.headers,
      payload: donationForm('2026-01-08'),
    });
    const reward = await t.app.inject({
      method: 'POST',
      url: '/api/game/donation-complete',
      headers: donor.headers,
    });
    expect(reward.json().profile).toMatchObject({ points: 200, donation_streak: 1 });

    const result = await rejectAndRecompute(submitted.json().id, donor.id);
    expect(result.profile).toMatchObject({ points: 0, level: 1, donation_streak: 0 });
    expect(result.withdrawn.map((achievement) => achievement.name)).toEqual(['First Time Hero']);
    expect(await stateOf(donor)).toMatchObject({ total_donations: 0, achievements: [] });

    // The rejected donation can never be rewarded again.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/game/donation-complete',
      headers: donor.headers,
    });
    expect(again.statusCode).toBe(409);
  });

  it('changes nothing (not even the leaderboard tie-break) when the rejected donation was never rewarded', async () => {
    const donor = await createDonor(t);
    await donateRewardAndApprove(t, donor, '2026-01-05');
    setToday(t, '2026-05-01');
    const unrewarded = await t.app.inject({
      method: 'POST',
      url: '/api/donations',
      headers: donor.headers,
      payload: donationForm('2026-05-01'),
    });
    const before = await profileRow(donor.id);

    const result = await rejectAndRecompute(unrewarded.json().id, donor.id);
    expect(result).toEqual({
      profile: { id: before.id, points: 200, level: 3, donation_streak: 1 },
      earned: [],
      withdrawn: [],
    });
    expect((await profileRow(donor.id)).points_reached_at).toBe(before.points_reached_at);
  });

  it("moves the donor behind a tied rival when their points drop to the rival's", async () => {
    const rival = await createDonor(t, { first_name: 'Rival', last_name: 'Rao' });
    const donor = await createDonor(t, { first_name: 'Dropping', last_name: 'Das' });
    // Both far above everyone else in this file.
    for (const [user, start] of [
      [donor, '2026-01-01'],
      [rival, '2026-01-02'],
    ] as const) {
      for (const date of [start, '2026-04-10', '2026-07-10', '2026-10-10', '2027-01-10'])
        await donateRewardAndApprove(t, user, date);
    }
    await donateRewardAndApprove(t, donor, '2027-04-15');
    const top = async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/game/leaderboard?limit=2',
        headers: donor.headers,
      });
      return response.json<LeaderboardEntry[]>().map((entry) => [entry.name, entry.points]);
    };
    expect(await top()).toEqual([
      ['Dropping D.', 2000],
      ['Rival R.', 1900],
    ]);

    const ids = await donationIdsOf(donor.id);
    await rejectAndRecompute(ids[ids.length - 1]!, donor.id, '2027-05-01T00:00:00.000Z');
    // Equal points now: the rival reached 1900 first.
    expect(await top()).toEqual([
      ['Rival R.', 1900],
      ['Dropping D.', 1900],
    ]);
    expect((await profileRow(donor.id)).points_reached_at).toBe('2027-05-01T00:00:00.000Z');
  });

  it('returns no profile for a donor who never played', async () => {
    const donor = await createDonor(t);
    const result = await t.db.transaction().execute((trx) => recomputeGameState(trx, donor.id, REJECTED_AT));
    expect(result).toEqual({ profile: null, earned: [], withdrawn: [] });
  });
});

describe('donationRecordOf', () => {
  it('counts donations, the current streak and the longest streak with the 180-day window', () => {
    expect(donationRecordOf([])).toEqual({ donations: 0, currentStreak: 0, longestStreak: 0 });
    expect(donationRecordOf(['2026-01-01'])).toEqual({ donations: 1, currentStreak: 1, longestStreak: 1 });
    // 180 days apart keeps it, 181 breaks it.
    expect(donationRecordOf(['2026-01-01', '2026-06-30', '2026-12-27'])).toMatchObject({ currentStreak: 3 });
    expect(donationRecordOf(['2026-01-01', '2026-06-30', '2026-12-28'])).toMatchObject({
      currentStreak: 1,
      longestStreak: 2,
    });
  });
});
