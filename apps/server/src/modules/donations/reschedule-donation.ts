import type { Donation, RescheduleInput } from '@bloodbank/shared/donation';
import type { AppContext } from '../../context';
import { forbidden, notFound } from '../../errors';
import { holdSlot } from '../sites/hold-slot';
import { notEligible } from './book-donation';
import { DONATION_ACTIVITY_KINDS, donationActivityMessages, recordDonationActivity } from './donation-activity';
import { bookingClosed, checkedInBooking, DONATION_DECISION_MESSAGES } from './donation-decisions';
import { messagePlace, messages } from '../notifications/messages';
import { notify } from '../notifications/notify';
import { findBookingFacts, findDonationWithSite, lockDonor, moveDonation, withSite } from './donations.repository';
import { toDonation } from './donations.service';
import { ineligibilityOn } from './eligibility';

export const RESCHEDULE_MESSAGES = {
  notYours: 'You can only move your own bookings.',
} as const;

/**
 * POST /donations/:id/reschedule: the donor moves their own pending booking to another day, and to
 * another free slot when sites exist (PRODUCT.md 3.6). The new day must be one they may donate on
 * (3.2, 3.7); the old place is free as soon as this commits, and the new one is held atomically as
 * a booking's is (sites/hold-slot.ts; 409 when it filled meanwhile). Not once staff have checked
 * the donor in: they are at the site, and the booking would leave the day list under staff's eyes.
 */
export async function rescheduleDonation(
  ctx: AppContext,
  donorId: number,
  donationId: number,
  input: RescheduleInput,
): Promise<Donation> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    // The caller's own row first (lockDonor's order), then one read of the booking that answers
    // the refusals and the move alike.
    await lockDonor(trx, donorId, ctx.engine);
    const current = await findDonationWithSite(trx, donationId);
    if (!current) throw notFound(DONATION_DECISION_MESSAGES.donationNotFound);
    if (current.donor_id !== donorId) throw forbidden(RESCHEDULE_MESSAGES.notYours);
    if (current.status !== 'pending') throw bookingClosed(current.status, 'moved');
    if (current.checked_in_at !== null) throw checkedInBooking('moved');
    // The same day, site and time: nothing moves, and nothing is logged or sent. Still a conditional
    // update, so a cancel or a decision committed meanwhile (on another instance) is not answered
    // as a booking that stands.
    if (isSameBooking(current, input)) {
      const unchanged = await moveDonation(trx, donationId, 'pending', { status: 'pending' }, { ownedBy: donorId, notCheckedIn: true });
      if (!unchanged) throw bookingClosed('pending', 'moved');
      return toDonation(current);
    }
    const facts = await findBookingFacts(trx, donorId);
    const ineligibility = await ineligibilityOn(trx, donorId, input.date, {
      days: ctx.config.donationIntervalDays,
      lastCollection: facts.lastCollection,
    });
    if (ineligibility) throw notEligible(ineligibility);
    const place = await holdSlot(ctx, trx, { siteId: input.site_id, slot: input.slot, date: input.date }, donationId);
    const moved = await moveDonation(
      trx,
      donationId,
      'pending',
      { status: 'pending', donation_date: input.date, site_id: place?.site.id ?? null, slot: place?.slot ?? null },
      { ownedBy: donorId, notCheckedIn: true },
    );
    if (!moved) throw bookingClosed('pending', 'moved');
    await recordDonationActivity(
      trx,
      donorId,
      DONATION_ACTIVITY_KINDS.moved,
      donationActivityMessages.moved({ date: moved.donation_date, units: moved.units }, place ? { site: place.site.name, time: place.slot } : null),
      at,
    );
    // The donor's confirmation names the new day, place and time (PRODUCT.md 3.8): the first one is now wrong.
    await notify(
      ctx,
      trx,
      donorId,
      messages.bookingMoved(moved.donation_date, messagePlace(place)),
      at,
    );
    return toDonation(withSite(moved, place?.site));
  });
}

/** Whether the move asks for the day, site and time the booking already has. */
function isSameBooking(current: { donation_date: string; site_id: number | null; slot: string | null }, input: RescheduleInput): boolean {
  return current.donation_date === input.date && current.site_id === (input.site_id ?? null) && current.slot === (input.slot ?? null);
}
