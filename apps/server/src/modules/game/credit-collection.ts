import type { Transaction } from 'kysely';
import { POINTS_PER_DONATION } from '@bloodbank/shared/constants';
import type { DB } from '../../db/types';
import { insertProfileIfMissing, insertReward } from './game.repository';
import { recomputeGameState, type RecomputedGameState } from './recompute-game-state';

/**
 * Blood Hero credits a donation when its blood is collected (PRODUCT.md 3.4), inside the
 * collection's transaction: 100 points and whatever achievements the history now earns. The reward
 * waits unseen until the donor's app asks for it (complete-donation.ts). The unique
 * game_rewards.donation_id makes a second credit of one donation impossible.
 */
export async function creditCollectedDonation(
  trx: Transaction<DB>,
  donation: { id: number; donorId: number },
  at: string,
): Promise<RecomputedGameState> {
  await insertReward(trx, { donationId: donation.id, donorId: donation.donorId, points: POINTS_PER_DONATION, at });
  await insertProfileIfMissing(trx, donation.donorId, at);
  return recomputeGameState(trx, donation.donorId, at);
}
