import type { Transaction } from 'kysely';
import { POINTS_PER_DONATION } from '@bloodbank/shared/constants';
import type { Achievement, EarnedAchievement, GameProfile } from '@bloodbank/shared/game';
import type { DB } from '../../db/types';
import { recordActivity } from '../activity/activity.repository';
import { DONATION_ACTIVITY_KINDS, donationActivityMessages } from '../donations/donation-activity';
import { levelForPoints } from '@bloodbank/shared/game';
import { deserves, donationRecordOf } from './game-rules';
import {
  deleteEarnedAchievements,
  insertEarnedAchievement,
  listAchievements,
  listEarnedAchievements,
  listRewardedDonationDates,
  lockProfile,
  updateProfileStanding,
} from './game.repository';
import { toAchievement } from './game.service';

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
 * 3.4): points, level, current streak and achievements are recomputed from the collected
 * donations. Call it inside the transaction that changes that history (a collection). It records
 * an activity for every achievement earned or withdrawn. When the points do not change,
 * points_reached_at (the leaderboard tie-break) is kept.
 *
 * Points are a sum over the history, never an increment, and an achievement whose rule no longer
 * holds is withdrawn: the game stays a function of the history whatever changes it.
 */
export async function recomputeGameState(
  trx: Transaction<DB>,
  donorId: number,
  at: string,
): Promise<RecomputedGameState> {
  // Locked first, so that two changes of one donor's history run one after the other.
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

  // "When a rule stops holding, that achievement is withdrawn", and the donor is told.
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

  // Points are never added to or taken from: always the sum over the history as it now stands.
  const points =
    record.donations * POINTS_PER_DONATION +
    deserved.reduce((sum, achievement) => sum + achievement.points_reward, 0);
  const standing = {
    points,
    level: levelForPoints(points),
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
