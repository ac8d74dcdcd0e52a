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
  next_level_points: z.number().int(),
  total_donations: z.number().int(),
  achievements: z.array(EarnedAchievementSchema),
});
export type GameState = z.infer<typeof GameStateSchema>;

export const DonationCompleteResultSchema = z.object({
  profile: GameProfileSchema,
  /** Only the achievements this reward newly earned. */
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

/** Percent of the way to the next level (spec section 4), assuming a level spans 100 points. */
export function levelProgressPercent(points: number, nextLevelPoints: number): number {
  return Math.round(((points - (nextLevelPoints - 100)) / 100) * 100);
}
