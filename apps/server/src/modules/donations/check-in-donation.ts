import { SITE_MESSAGES } from '@bloodbank/shared/sites';
import type { AdminDonation } from '@bloodbank/shared/admin';
import type { AppContext } from '../../context';
import { conflict } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { bookingChangedMeanwhile, findDonationInState } from './donation-decisions';
import { findDonationForAdmin } from './donations.repository';
import { toAdminDonation } from './donations.service';

/**
 * POST /admin/donations/:id/check-in: the donor of a booking has arrived (PRODUCT.md 3.6, the day
 * list's "checked in"). Only on the booked day, only while pending, once; audited. The collection
 * is recorded next (collect-donation.ts).
 */
export async function checkInDonation(ctx: AppContext, admin: Principal, donationId: number): Promise<AdminDonation> {
  const donation = await findDonationInState(ctx, donationId, 'pending');
  const today = ctx.clock.today();
  if (donation.donation_date !== today) throw conflict(SITE_MESSAGES.checkInDay(donation.donation_date), 'not_today');
  if (donation.checked_in_at !== null) throw conflict(SITE_MESSAGES.checkedInAlready, 'checked_in');
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const checkedIn = await trx
      .updateTable('donations')
      .set({ checked_in_at: at })
      .where('id', '=', donationId)
      .where('status', '=', 'pending')
      // The day and place again, not only before: the donor may have moved the booking meanwhile
      // (a move clears a check-in, which belongs to a place and time).
      .where('donation_date', '=', today)
      .where((eb) => (donation.site_id === null ? eb('site_id', 'is', null) : eb('site_id', '=', donation.site_id)))
      .where((eb) => (donation.slot === null ? eb('slot', 'is', null) : eb('slot', '=', donation.slot)))
      .where('checked_in_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!checkedIn) throw await bookingChangedMeanwhile(trx, donationId, 'check-in', today);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'donation.checked_in',
      entity: 'donation',
      entityId: donationId,
      after: { checked_in_at: at },
      at,
    });
    const row = await findDonationForAdmin(trx, donationId);
    if (!row) throw new Error('donation missing right after its check-in');
    return toAdminDonation(row, [], undefined);
  });
}
