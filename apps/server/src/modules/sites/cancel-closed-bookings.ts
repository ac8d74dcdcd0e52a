import type { Transaction } from 'kysely';
import type { Site } from '@bloodbank/shared/sites';
import type { AppContext } from '../../context';
import type { DB } from '../../db/types';
import type { Principal } from '../../plugins/access';
import { donationActivityMessages, recordBookingCancelledByStaff } from '../donations/donation-activity';
import { messages } from '../notifications/messages';
import { notify } from '../notifications/notify';
import { cancelBookingStillAt, listBookingsClosedBy } from './sites.repository';

/** Why such a booking was cancelled, as staff read it beside its status. */
export const SITE_CLOSED_REASON = 'The site is closed at that time.';

/**
 * After staff change a site's calendar (a closed date, new hours): every pending booking from today
 * on at which the site is no longer open is cancelled, its place freed, and its donor told in the
 * app and by e-mail, so nobody comes to a closed door (PRODUCT.md 3.6). Today's count too, though
 * their time has begun: a donor running late must not come either. A booking whose donor is checked
 * in stays. Runs in the edit's transaction, under the site's lock, so no booking can take a place at
 * a time just closed meanwhile. Answers how many were cancelled.
 */
export async function cancelBookingsAtClosedTimes(
  ctx: AppContext,
  trx: Transaction<DB>,
  admin: Principal,
  site: Site,
  at: string,
): Promise<number> {
  const today = ctx.clock.today();
  const bookings = await listBookingsClosedBy(trx, site.id, today, site);
  let cancelled = 0;
  for (const booking of bookings) {
    const { slot } = booking;
    // Only if it is still the booking that was read: on PostgreSQL another instance may have moved
    // it to another site or time, or checked its donor in, since (neither takes this site's lock).
    const row = await cancelBookingStillAt(
      trx,
      site.id,
      { ...booking, slot },
      {
        status: 'cancelled',
        decided_by: admin.id,
        decided_at: at,
        outcome_reason: SITE_CLOSED_REASON,
      },
    );
    if (!row) continue;
    cancelled += 1;
    const place = { site: site.name, address: site.address, time: slot };
    await recordBookingCancelledByStaff(
      trx,
      admin,
      booking,
      donationActivityMessages.cancelledSiteClosed(
        { date: booking.donation_date, units: booking.units },
        place,
      ),
      { reason: SITE_CLOSED_REASON },
      at,
    );
    await notify(
      ctx,
      trx,
      booking.donor_id,
      messages.bookingCancelledSiteClosed(booking.donation_date, place),
      at,
    );
  }
  return cancelled;
}
