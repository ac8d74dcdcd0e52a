import type { Donation } from '@bloodbank/shared/donation';
import type { AppContext } from '../../context';
import { forbidden, notFound } from '../../errors';
import { DONATION_ACTIVITY_KINDS, donationActivityMessages, recordDonationActivity } from './donation-activity';
import { bookingClosed, checkedInBooking, DONATION_DECISION_MESSAGES } from './donation-decisions';
import { findSiteRow } from '../sites/sites.repository';
import { findDonationOwnerAndStatus, moveDonation, withSite } from './donations.repository';
import { toDonation } from './donations.service';
import { notify } from '../notifications/notify';
import { messagePlace, messages } from '../notifications/messages';

export const CANCEL_MESSAGES = {
  notYours: 'You can only cancel your own bookings.',
} as const;

/**
 * POST /donations/:id/cancel: the donor cancels their own pending booking (PRODUCT.md 3.2); its
 * place in a slot is free at once. Not once staff have checked them in: they are at the site.
 */
export async function cancelDonation(ctx: AppContext, donorId: number, donationId: number): Promise<Donation> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const cancelled = await moveDonation(
      trx,
      donationId,
      'pending',
      { status: 'cancelled', decided_at: at, decided_by: donorId },
      { ownedBy: donorId, notCheckedIn: true },
    );
    if (!cancelled) {
      // Nothing moved: say why (read only then; a cancel that works needs no read first).
      const donation = await findDonationOwnerAndStatus(trx, donationId);
      if (!donation) throw notFound(DONATION_DECISION_MESSAGES.donationNotFound);
      if (donation.donor_id !== donorId) throw forbidden(CANCEL_MESSAGES.notYours);
      if (donation.status === 'pending' && donation.checked_in_at !== null) throw checkedInBooking('cancelled');
      throw bookingClosed(donation.status, 'cancelled');
    }
    await recordDonationActivity(
      trx,
      donorId,
      DONATION_ACTIVITY_KINDS.cancelled,
      donationActivityMessages.cancelled({ date: cancelled.donation_date, units: cancelled.units }),
      at,
    );
    const site = cancelled.site_id === null ? undefined : await findSiteRow(trx, cancelled.site_id);
    await notify(
      ctx,
      trx,
      donorId,
      messages.bookingCancelledByDonor(cancelled.donation_date, site && cancelled.slot !== null ? messagePlace({ site, slot: cancelled.slot }) : null),
      at,
    );
    return toDonation(withSite(cancelled, site));
  });
}
