import type { Transaction } from 'kysely';
import {
  MESSAGES,
  POINTS_PER_DONATION,
  POINTS_PER_LEVEL,
  STREAK_WINDOW_DAYS,
} from '@bloodbank/shared/constants';
import { daysBetween } from '@bloodbank/shared/dates';
import type {
  Achievement,
  DonationCompleteResult,
  EarnedAchievement,
  GameProfile,
  GameState,
  LeaderboardEntry,
} from '@bloodbank/shared/game';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import type { DB } from '../../db/types';
import { conflict, notFound } from '../../errors';
import { recordActivity } from '../activity/activity.repository';
import { DONATION_ACTIVITY_KINDS, donationActivityMessages } from '../donations/donation-activity';
import {
  countRewardedDonations,
  deleteEarnedAchievements,
  findLatestUnrewardedDonation,
  findProfile,
  insertEarnedAchievement,
  insertProfile,
  insertProfileIfMissing,
  insertReward,
  leaderboardQuery,
  listAchievements,
  listEarnedAchievements,
  listRewardedDonationDates,
  lockProfile,
  updateProfileStanding,
  type AchievementRow,
} from './game.repository';

// ---------------------------------------------------------------- the rules (pure)

export interface DonationRecord {
  /** Rewarded, non-rejected donations. */
  donations: number;
  /** Consecutive donations ending with the latest, each at most 180 days after the previous. */
  currentStreak: number;
  /** The longest such run in the history: what the streak achievement asks for. */
  longestStreak: number;
}

/** The game's view of a donor's history, from the dates of their rewarded, non-rejected donations. */
export function donationRecordOf(datesOldestFirst: readonly string[]): DonationRecord {
  let currentStreak = 0;
  let longestStreak = 0;
  let previous: string | undefined;
  for (const date of datesOldestFirst) {
    currentStreak =
      previous !== undefined && daysBetween(previous, date) <= STREAK_WINDOW_DAYS ? currentStreak + 1 : 1;
    longestStreak = Math.max(longestStreak, currentStreak);
    previous = date;
  }
  return { donations: datesOldestFirst.length, currentStreak, longestStreak };
}

/**
 * Whether the history earns an achievement. The streak achievement asks for a streak once
 * reached, not the current one: a donor who already earned it does not lose 500 points for
 * donating again after a long break. Only a rejection (which removes a donation from the
 * history) can make a rule false and withdraw an achievement.
 */
export function deserves(
  achievement: Pick<AchievementRow, 'rule' | 'threshold'>,
  record: DonationRecord,
): boolean {
  return achievement.rule === 'donations'
    ? record.donations >= achievement.threshold
    : record.longestStreak >= achievement.threshold;
}

export const levelFor = (points: number) => Math.floor(points / POINTS_PER_LEVEL) + 1;
export const nextLevelPointsFor = (level: number) => level * POINTS_PER_LEVEL;

// ---------------------------------------------------------------- mapping

type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;
type EarnedRow = Awaited<ReturnType<typeof listEarnedAchievements>>[number];

const toProfile = (row: ProfileRow): GameProfile => ({
  id: row.id,
  points: row.points,
  level: row.level,
  donation_streak: row.donation_streak,
});

const toAchievement = (
  row: Pick<AchievementRow, 'id' | 'name' | 'description' | 'points_reward' | 'icon'>,
): Achievement => ({
  id: row.id,
  name: row.name,
  description: row.description,
  points_reward: row.points_reward,
  icon: row.icon,
});

const toEarned = (row: EarnedRow): EarnedAchievement => ({
  id: row.id,
  achievement_id: row.achievement_id,
  achievement: toAchievement({ ...row, id: row.achievement_id }),
  earned_at: row.earned_at,
});

/** "Asha K.": first name and last initial; the username when no first name is on file. */
export function leaderboardName(user: {
  first_name: string | null;
  last_name: string | null;
  username: string;
}): string {
  const first = user.first_name?.trim();
  if (!first) return user.username;
  const lastInitial = Array.from(user.last_name?.trim() ?? '')[0];
  return lastInitial ? `${first} ${lastInitial.toUpperCase()}.` : first;
}

// ---------------------------------------------------------------- recomputation

export interface RecomputedGameState {
  /** null when the donor has no game profile (nothing to recompute). */
  profile: GameProfile | null;
  /** Achievements this recomputation awarded. */
  earned: EarnedAchievement[];
  /** Achievements this recomputation took away because their rule no longer holds. */
  withdrawn: Achievement[];
}

/**
 * Brings a donor's game profile and earned achievements in line with their history (PRODUCT.md
 * 3.4): points, level, current streak and achievements are recomputed from the rewarded,
 * non-rejected donations. Call it inside the transaction that changes that history (a reward, a
 * rejection). It records an activity for every achievement earned or withdrawn. When the points
 * do not change, points_reached_at (the leaderboard tie-break) is kept.
 */
export async function recomputeGameState(
  trx: Transaction<DB>,
  donorId: number,
  at: string,
): Promise<RecomputedGameState> {
  const profile = await lockProfile(trx, donorId, at);
  if (!profile) return { profile: null, earned: [], withdrawn: [] };

  const [dates, catalogue, alreadyEarned] = await Promise.all([
    listRewardedDonationDates(trx, donorId),
    listAchievements(trx),
    listEarnedAchievements(trx, donorId),
  ]);
  const record = donationRecordOf(dates);
  const deserved = catalogue.filter((achievement) => deserves(achievement, record));
  const deservedIds = new Set(deserved.map((achievement) => achievement.id));
  const earnedIds = new Set(alreadyEarned.map((earned) => earned.achievement_id));

  const withdrawn = catalogue.filter(
    (achievement) => earnedIds.has(achievement.id) && !deservedIds.has(achievement.id),
  );
  await deleteEarnedAchievements(
    trx,
    donorId,
    withdrawn.map((achievement) => achievement.id),
  );
  for (const achievement of withdrawn) {
    await recordActivity(trx, {
      userId: donorId,
      kind: DONATION_ACTIVITY_KINDS.achievementWithdrawn,
      message: donationActivityMessages.achievementWithdrawn(achievement),
      at,
    });
  }

  const earned: EarnedAchievement[] = [];
  for (const achievement of deserved.filter((candidate) => !earnedIds.has(candidate.id))) {
    const id = await insertEarnedAchievement(trx, { donorId, achievementId: achievement.id, at });
    earned.push({
      id,
      achievement_id: achievement.id,
      achievement: toAchievement(achievement),
      earned_at: at,
    });
    await recordActivity(trx, {
      userId: donorId,
      kind: DONATION_ACTIVITY_KINDS.achievementEarned,
      message: donationActivityMessages.achievementEarned(achievement),
      at,
    });
  }

  const points =
    record.donations * POINTS_PER_DONATION +
    deserved.reduce((sum, achievement) => sum + achievement.points_reward, 0);
  const standing = {
    points,
    level: levelFor(points),
    donation_streak: record.currentStreak,
    points_reached_at: points === profile.points ? profile.points_reached_at : at,
  };
  await updateProfileStanding(trx, profile.id, standing);

  return {
    profile: {
      id: profile.id,
      points: standing.points,
      level: standing.level,
      donation_streak: standing.donation_streak,
    },
    earned,
    withdrawn: withdrawn.map(toAchievement),
  };
}

// ---------------------------------------------------------------- use cases

const noDonationToReward = () => conflict(MESSAGES.noDonationToReward, 'nothing_to_reward');
const noProfile = () => notFound('Game profile not found. Create one to start playing.');

/**
 * Rewards the donor's latest unrewarded, non-rejected donation (a pending one counts: the donor
 * is rewarded on submit, and a later rejection reverses it). The unique game_rewards.donation_id
 * makes a second reward of one donation impossible, even from two calls at once.
 */
export async function completeDonation(ctx: AppContext, donorId: number): Promise<DonationCompleteResult> {
  const at = ctx.clock.now().toISOString();
  try {
    return await ctx.writes.run(async (trx) => {
      const donation = await findLatestUnrewardedDonation(trx, donorId);
      if (!donation) throw noDonationToReward();
      await insertReward(trx, { donationId: donation.id, donorId, points: POINTS_PER_DONATION, at });
      await insertProfileIfMissing(trx, donorId, at);
      const result = await recomputeGameState(trx, donorId, at);
      if (!result.profile) throw new Error('game profile missing right after it was ensured');
      return { profile: result.profile, achievements: result.earned };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw noDonationToReward();
    throw error;
  }
}

/** A new profile is derived from history, never from what the client sends. */
export async function createProfile(ctx: AppContext, donorId: number): Promise<GameProfile> {
  const at = ctx.clock.now().toISOString();
  try {
    return await ctx.writes.run(async (trx) => {
      await insertProfile(trx, donorId, at);
      const result = await recomputeGameState(trx, donorId, at);
      if (!result.profile) throw new Error('game profile missing right after it was created');
      return result.profile;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('You already have a game profile.', 'profile_exists');
    throw error;
  }
}

export async function getMyProfile(db: DatabaseOrTransaction, donorId: number): Promise<GameProfile> {
  const profile = await findProfile(db, donorId);
  if (!profile) throw noProfile();
  return toProfile(profile);
}

export async function getGameState(db: DatabaseOrTransaction, donorId: number): Promise<GameState> {
  const profile = await findProfile(db, donorId);
  if (!profile) throw noProfile();
  const [totalDonations, earned] = await Promise.all([
    countRewardedDonations(db, donorId),
    listEarnedAchievements(db, donorId),
  ]);
  return {
    profile: toProfile(profile),
    next_level_points: nextLevelPointsFor(profile.level),
    total_donations: totalDonations,
    achievements: earned.map(toEarned),
  };
}

export async function getLeaderboard(db: DatabaseOrTransaction, limit: number): Promise<LeaderboardEntry[]> {
  const rows = await leaderboardQuery(db, limit).execute();
  return rows.map((row) => ({
    id: row.id,
    user_id: row.donor_id,
    name: leaderboardName(row),
    level: row.level,
    points: row.points,
  }));
}

export async function getAchievementCatalogue(db: DatabaseOrTransaction): Promise<Achievement[]> {
  const rows = await listAchievements(db);
  return rows.map(toAchievement);
}

export async function getMyAchievements(
  db: DatabaseOrTransaction,
  donorId: number,
): Promise<EarnedAchievement[]> {
  const rows = await listEarnedAchievements(db, donorId);
  return rows.map(toEarned);
}
