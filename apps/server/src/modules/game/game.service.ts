import { levelStartPoints, nextLevelPoints } from '@bloodbank/shared/game';
import type {
  Achievement,
  EarnedAchievement,
  GameProfile,
  GameState,
  LeaderboardEntry,
} from '@bloodbank/shared/game';
import type { DatabaseOrTransaction } from '../../db/database';
import { notFound } from '../../errors';
import {
  countRewardedDonations,
  findProfile,
  leaderboardQuery,
  listAchievements,
  listEarnedAchievements,
  type AchievementRow,
} from './game.repository';

/**
 * What the game screens read. The rules are in game-rules.ts and recompute-game-state.ts; the
 * changes in complete-donation.ts and create-profile.ts.
 */

// ---------------------------------------------------------------- mapping

type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;
type EarnedRow = Awaited<ReturnType<typeof listEarnedAchievements>>[number];

export const toProfile = (row: ProfileRow): GameProfile => ({
  id: row.id,
  points: row.points,
  level: row.level,
  donation_streak: row.donation_streak,
});

export const toAchievement = (
  row: Pick<AchievementRow, 'id' | 'name' | 'description' | 'points_reward' | 'icon'>,
): Achievement => ({
  id: row.id,
  name: row.name,
  description: row.description,
  points_reward: row.points_reward,
  icon: row.icon,
});

export const toEarned = (row: EarnedRow): EarnedAchievement => ({
  id: row.id,
  achievement_id: row.achievement_id,
  achievement: toAchievement({ ...row, id: row.achievement_id }),
  earned_at: row.earned_at,
});

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * "Asha K.": first name and last initial; the username when no first name is on file. The initial
 * is the last name's first letter as it is read (a whole "क्ष", an "É" however typed); a last name
 * with no letter ("-" or "." typed by someone with one name, as the form requires one) gives none.
 */
export function leaderboardName(user: {
  first_name: string | null;
  last_name: string | null;
  username: string;
}): string {
  const first = user.first_name?.trim();
  if (!first) return user.username;
  const last = user.last_name ?? '';
  const letterAt = last.search(/\p{L}/u);
  if (letterAt < 0) return first;
  const [initial] = graphemes.segment(last.slice(letterAt));
  return `${first} ${initial!.segment.toUpperCase()}.`;
}

// ---------------------------------------------------------------- reads

const noProfile = () => notFound('Game profile not found. Create one to start playing.');

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
    level_start_points: levelStartPoints(profile.level),
    next_level_points: nextLevelPoints(profile.level),
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
