import { z } from 'zod';
import { LEADERBOARD_LIMIT } from './constants';

export const GameProfileSchema = z.object({
  id: z.number().int(),
  points: z.number().int(),
  level: z.number().int(),
  donation_streak: z.number().int(),
});
export type GameProfile = z.infer<typeof GameProfileSchema>;

export const ACHIEVEMENT_ICONS = [
  'first_hero_badge',
  'regular_hero_badge',
  'super_hero_badge',
  'master_badge',
  'streak_badge',
] as const;

export const AchievementSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  points_reward: z.number().int(),
  icon: z.string(),
});
export type Achievement = z.infer<typeof AchievementSchema>;

export const EarnedAchievementSchema = z.object({
  id: z.number().int(),
  achievement_id: z.number().int(),
  achievement: AchievementSchema,
  earned_at: z.string(),
});
export type EarnedAchievement = z.infer<typeof EarnedAchievementSchema>;

export const GameStateSchema = z.object({
  profile: GameProfileSchema,
  /** Where the current level starts and the next begins (PRODUCT.md 3.4: level n spans 100 x n). */
  level_start_points: z.number().int(),
  next_level_points: z.number().int(),
  total_donations: z.number().int(),
  achievements: z.array(EarnedAchievementSchema),
});
export type GameState = z.infer<typeof GameStateSchema>;

export const DonationCompleteResultSchema = z.object({
  profile: GameProfileSchema,
  /** Points credited since the donor last saw their rewards (100 per collected donation). */
  points_credited: z.number().int(),
  /** The achievements earned since the donor last saw their rewards. */
  achievements: z.array(EarnedAchievementSchema),
});
export type DonationCompleteResult = z.infer<typeof DonationCompleteResultSchema>;

export const LeaderboardEntrySchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  /** First name and last initial, e.g. "Asha K.". */
  name: z.string(),
  level: z.number().int(),
  points: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;

export const LeaderboardQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(LEADERBOARD_LIMIT.min, `limit must be between ${LEADERBOARD_LIMIT.min} and ${LEADERBOARD_LIMIT.max}`)
    .max(LEADERBOARD_LIMIT.max, `limit must be between ${LEADERBOARD_LIMIT.min} and ${LEADERBOARD_LIMIT.max}`)
    .default(LEADERBOARD_LIMIT.default),
});

/** Level n starts at 50 x n x (n - 1) points and spans 100 x n (PRODUCT.md 3.4). */
export const levelStartPoints = (level: number) => 50 * level * (level - 1);
export const nextLevelPoints = (level: number) => 50 * level * (level + 1);
/** The level a number of points reaches: 0-99 is 1, 100-299 is 2, 300-599 is 3, ... */
export function levelForPoints(points: number): number {
  let level = 1;
  while (points >= nextLevelPoints(level)) level += 1;
  return level;
}

/**
 * Percent of the way from the current level's start to the next level, 0..100. Rounded, but never
 * 100 before the next level is reached (299 points of level 2's 100..300 is 99%, not "100%, 1 to go").
 */
export function levelProgressPercent(points: number, levelStart: number, nextLevel: number): number {
  const span = nextLevel - levelStart;
  if (span <= 0) return 0;
  const ceiling = points < nextLevel ? 99 : 100;
  return Math.min(ceiling, Math.max(0, Math.round(((points - levelStart) / span) * 100)));
}
