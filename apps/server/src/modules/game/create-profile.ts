import type { GameProfile } from '@bloodbank/shared/game';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { conflict } from '../../errors';
import { insertProfile } from './game.repository';
import { recomputeGameState } from './recompute-game-state';

/**
 * POST /game/profiles. A new profile is derived from history, never from what the client sends
 * (PRODUCT.md 3.4): it starts empty and is recomputed from the donor's rewarded donations.
 */
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
    // The unique donor_id: one profile per donor, even from two calls at once.
    if (isUniqueViolation(error)) throw conflict('You already have a game profile.', 'profile_exists');
    throw error;
  }
}
