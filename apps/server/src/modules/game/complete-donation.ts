import { MESSAGES, POINTS_PER_DONATION } from '@bloodbank/shared/constants';
import type { DonationCompleteResult } from '@bloodbank/shared/game';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { conflict } from '../../errors';
import { findLatestUnrewardedDonation, insertProfileIfMissing, insertReward } from './game.repository';
import { recomputeGameState } from './recompute-game-state';

const noDonationToReward = () => conflict(MESSAGES.noDonationToReward, 'nothing_to_reward');

/**
 * POST /game/donation-complete. Rewards the donor's latest unrewarded, non-rejected donation (a
 * pending one counts: the donor is rewarded on submit, and a later rejection reverses it, see
 * donations/reject-donation.ts). The unique game_rewards.donation_id makes a second reward of one
 * donation impossible, even from two calls at once.
 */
export async function completeDonation(ctx: AppContext, donorId: number): Promise<DonationCompleteResult> {
  const at = ctx.clock.now().toISOString();
  try {
    return await ctx.writes.run(async (trx) => {
      const donation = await findLatestUnrewardedDonation(trx, donorId);
      if (!donation) throw noDonationToReward();
      await insertReward(trx, { donationId: donation.id, donorId, points: POINTS_PER_DONATION, at });
      // The first reward creates the profile: a donor never has to create one to be rewarded.
      await insertProfileIfMissing(trx, donorId, at);
      const result = await recomputeGameState(trx, donorId, at);
      if (!result.profile) throw new Error('game profile missing right after it was ensured');
      return { profile: result.profile, achievements: result.earned };
    });
  } catch (error) {
    // Two calls at once: the unique reward per donation lets one through.
    if (isUniqueViolation(error)) throw noDonationToReward();
    throw error;
  }
}
