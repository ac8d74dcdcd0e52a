import type { Deferral, LiftDeferralInput } from '@bloodbank/shared/donation-lifecycle';
import type { AppContext } from '../../context';
import { conflict } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordActivity } from '../activity/activity.repository';
import { recordAudit } from '../audit/audit.repository';
import { messages } from '../notifications/messages';
import { notify } from '../notifications/notify';
import { findPendingBookingDate } from '../donations/donations.repository';
import { findDeferral, findDeferralInForce, liftDeferralOnce } from './deferrals.repository';
import { deferralNotFound, toDeferral } from './deferrals.service';
import { DEFERRAL_ACTIVITY_KINDS, deferralActivityMessages, deferralMessageFacts } from './record-deferral';

/** POST /admin/deferrals/:id/lift: staff lift a deferral with a reason, once (PRODUCT.md 3.7). */
export async function liftDeferral(
  ctx: AppContext,
  admin: Principal,
  deferralId: number,
  input: LiftDeferralInput,
): Promise<Deferral> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const lifted = await liftDeferralOnce(trx, deferralId, { by: admin.id, reason: input.reason, at });
    if (!lifted) {
      if (!(await findDeferral(trx, deferralId))) throw deferralNotFound();
      throw conflict('This deferral has already been lifted.', 'already_lifted');
    }
    // With another deferral still in force the donor is told so, and gets no "book again" e-mail.
    const today = ctx.clock.today();
    // A deferral whose end has passed held nothing back (the daily run told the donor they can donate
    // again): lifting it is staff's bookkeeping, and the donor hears nothing more.
    const endedAlready = lifted.type === 'temporary' && lifted.until !== null && lifted.until <= today;
    if (!endedAlready) {
      const stillInForce = await findDeferralInForce(trx, lifted.donor_id, today);
      // A donor who holds a booking (one on or after the deferral's end) is not invited to book again.
      const { interval, booked } = await deferralMessageFacts(ctx, trx, lifted.donor_id);
      await recordActivity(trx, {
        userId: lifted.donor_id,
        kind: DEFERRAL_ACTIVITY_KINDS.lifted,
        message: stillInForce
          ? deferralActivityMessages.liftedStillDeferred(stillInForce, interval, booked ? await findPendingBookingDate(trx, lifted.donor_id) : null)
          : deferralActivityMessages.lifted(today, interval, booked),
        at,
      });
      if (!stillInForce) await notify(ctx, trx, lifted.donor_id, messages.deferralLifted(today, interval, booked), at);
    }
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'deferral.lifted',
      entity: 'deferral',
      entityId: lifted.id,
      before: { type: lifted.type, until: lifted.until },
      after: { lifted: true, reason: input.reason },
      at,
    });
    const row = await findDeferral(trx, deferralId);
    if (!row) throw new Error('deferral missing right after it was lifted');
    return toDeferral(row, ctx.clock.today());
  });
}
