import type { AppContext } from '../../context';
import { recordAudit } from '../audit/audit.repository';
import { DONATION_ACTIVITY_KINDS, donationActivityMessages, recordDonationActivity } from './donation-activity';

/**
 * A booking whose day has passed without the donor coming (no check-in, no collection) becomes a
 * no-show (PRODUCT.md 3.6): it no longer blocks the donor's next booking, and its site's day list
 * counts it. A booking checked in but not collected stays due, overdue on staff's list, until staff
 * record the collection or reject it. Part of the daily
 * work (daily-work.ts): every booking of a day before `today` still pending, however long the server
 * was down, in one conditional update, so a run on two instances at once marks each booking once.
 * Answers how many were marked.
 */
export async function markNoShows(ctx: AppContext, today = ctx.clock.today()): Promise<number> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const missed = await trx
      .updateTable('donations')
      .set({ status: 'no_show', decided_at: at })
      .where('status', '=', 'pending')
      .where('donation_date', '<', today)
      // A donor checked in came: staff record the collection, or reject the booking, the next day.
      .where('checked_in_at', 'is', null)
      .returning(['id', 'donor_id', 'donation_date', 'units'])
      .execute();
    for (const booking of missed) {
      await recordDonationActivity(
        trx,
        booking.donor_id,
        DONATION_ACTIVITY_KINDS.noShow,
        donationActivityMessages.noShow({ date: booking.donation_date, units: booking.units }),
        at,
      );
    }
    if (missed.length > 0) {
      await recordAudit(trx, {
        actorId: null,
        actor: 'system',
        action: 'donations.no_show',
        entity: 'donation',
        entityId: null,
        after: { donation_ids: missed.map((booking) => booking.id), before: today },
        at,
      });
    }
    return missed.length;
  });
}
