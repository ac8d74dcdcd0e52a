import type { AdminDonation } from '@bloodbank/shared/admin';
import type { AppContext } from '../../context';
import { reasonOf } from '../../decisions';
import { conflict } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { recomputeGameState } from '../game/recompute-game-state';
import { recordDonationRejected } from './donation-activity';
import { DONATION_DECISION_MESSAGES, findPendingDonation } from './donation-decisions';
import { decidePendingDonation } from './donations.repository';
import { toAdminDonation } from './donations.service';

/**
 * POST /admin/donations/:id/reject, with an optional reason shown to the donor. Nothing enters
 * inventory, and the donor's game reward for it is withdrawn (PRODUCT.md 3.4).
 */
export async function rejectDonation(
  ctx: AppContext,
  admin: Principal,
  donationId: number,
  input: { reason?: string | undefined },
): Promise<AdminDonation> {
  const donation = await findPendingDonation(ctx, donationId);
  const reason = reasonOf(input.reason);
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const decided = await decidePendingDonation(trx, donationId, 'rejected', {
      decidedBy: admin.id,
      at,
      rejectionReason: reason,
    });
    if (!decided) throw conflict(DONATION_DECISION_MESSAGES.donationDecided, 'already_decided');
    await recordDonationRejected(trx, decided.donor_id, { date: decided.donation_date, units: decided.units }, reason, at);
    // A rejected donation no longer counts: the game takes its 100 points and any achievement it
    // earned back, in the same transaction (game/recompute-game-state.ts).
    const game = await recomputeGameState(trx, decided.donor_id, at);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'donation.rejected',
      entity: 'donation',
      entityId: decided.id,
      before: { status: donation.status },
      after: {
        status: decided.status,
        reason,
        ...(game.profile ? { game: { points: game.profile.points, level: game.profile.level } } : {}),
        ...(game.withdrawn.length ? { achievements_withdrawn: game.withdrawn.map((achievement) => achievement.name) } : {}),
      },
      at,
    });
    return toAdminDonation({ ...donation, ...decided }, []);
  });
}
