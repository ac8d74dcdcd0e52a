import { MESSAGES } from '@bloodbank/shared/constants';
import type { DonationCompleteResult } from '@bloodbank/shared/game';
import type { AppContext } from '../../context';
import { conflict } from '../../errors';
import { findProfile, insertProfileIfMissing, listEarnedAchievements, takeUnseenAchievements, takeUnseenRewards } from './game.repository';
import { toEarned, toProfile } from './game.service';

const noDonationToReward = () => conflict(MESSAGES.noDonationToReward, 'nothing_to_reward');

/**
 * POST /game/donation-complete (PRODUCT.md 3.4): the rewards credited at collection
 * (donations/collect-donation.ts) that the donor has not seen yet, each shown once. The web app
 * calls it after booking (nothing yet: 409) and whenever the donor opens the dashboard or the game,
 * so the rewards panel and the Achievement Unlocked modal appear when rewards arrive.
 */
export async function completeDonation(ctx: AppContext, donorId: number): Promise<DonationCompleteResult> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const rewards = await takeUnseenRewards(trx, donorId, at);
    const achievements = await takeUnseenAchievements(trx, donorId, at);
    if (rewards.length === 0 && achievements.length === 0) throw noDonationToReward();
    // A collection creates the profile; a donor who never had one is given one here too.
    await insertProfileIfMissing(trx, donorId, at);
    const profile = await findProfile(trx, donorId);
    if (!profile) throw new Error('game profile missing right after it was ensured');
    const unseen = new Set(achievements.map((earned) => earned.id));
    const earned = (await listEarnedAchievements(trx, donorId)).filter((row) => unseen.has(row.id));
    return {
      profile: toProfile(profile),
      points_credited: rewards.reduce((sum, reward) => sum + Number(reward.points), 0),
      achievements: earned.map(toEarned),
    };
  });
}
