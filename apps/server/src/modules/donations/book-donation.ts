import { MESSAGES } from '@bloodbank/shared/constants';
import type { Donation, DonationInput } from '@bloodbank/shared/donation';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { AppError, conflict, unauthorized } from '../../errors';
import { recordDonationSubmitted } from './donation-activity';
import { messagePlace, messages } from '../notifications/messages';
import { notify } from '../notifications/notify';
import { holdSlot } from '../sites/hold-slot';
import { findBookingDonor, findBookingFacts, insertDonation, withSite } from './donations.repository';
import { ineligibilityOn, type Ineligibility } from './eligibility';
import { toDonation } from './donations.service';

/**
 * POST /donations: a donor books a donation (PRODUCT.md 3.2): nothing is credited or stocked until
 * staff collect it (collect-donation.ts). The form's fields and limits
 * (units 1..2, a date from today to 90 days ahead, the confirmation) are checked by the body
 * schema; the eligibility rules and the place in a site's slot (PRODUCT.md 3.6, sites/hold-slot.ts)
 * are checked here, inside the write, so that two bookings at once see each other.
 */

const pendingDonationExists = () => conflict(MESSAGES.pendingDonationExists, 'donation_pending');

/**
 * The chosen date is too early (the interval, or a temporary deferral) or the donor is deferred
 * permanently: a 422 on the `date` field (not a 409), as PRODUCT.md 3.7 says; a later date fixes
 * the first two in the same form.
 */
export const notEligible = (ineligibility: Ineligibility) =>
  new AppError(422, ineligibility.message, ineligibility.rule === 'deferred' ? 'deferred' : 'not_eligible_yet', {
    errors: { date: ineligibility.message },
  });

export async function bookDonation(
  ctx: AppContext,
  donorId: number,
  input: DonationInput,
): Promise<Donation> {
  const at = ctx.clock.now().toISOString();
  try {
    const row = await ctx.writes.run(async (trx) => {
      // Locked first (lockDonor): a deferral on another instance waits for this booking, then cancels it.
      const donor = await findBookingDonor(trx, donorId, ctx.engine);
      // Deactivated after the request's session was checked (its cancellation of pending bookings
      // committed while this waited for the row): no booking may follow it.
      if (donor && donor.is_active !== 1) throw unauthorized(MESSAGES.sessionInvalid);
      const bloodgroup = donor?.bloodgroup;
      if (!donor || !bloodgroup)
        throw conflict('Your account has no blood group. Please contact the blood bank.', 'no_blood_group');
      const facts = await findBookingFacts(trx, donorId);
      // At most one pending donation per donor (409).
      if (facts.pending) throw pendingDonationExists();
      // Not deferred on that day, and at least the interval after the last collection (422 on the date).
      const ineligibility = await ineligibilityOn(trx, donorId, input.date, {
        days: ctx.config.donationIntervalDays,
        lastCollection: facts.lastCollection,
      });
      if (ineligibility) throw notEligible(ineligibility);
      const place = await holdSlot(ctx, trx, { siteId: input.site_id, slot: input.slot, date: input.date });

      const donation = await insertDonation(trx, {
        donor_id: donorId,
        // Always the account's own group, whatever the body says.
        bloodgroup,
        units: input.unit,
        donation_date: input.date,
        disease: input.disease,
        last_donation: input.lastDonation,
        status: 'pending',
        rejection_reason: null,
        decided_by: null,
        decided_at: null,
        created_at: at,
        collected_on: null,
        outcome_reason: null,
        site_id: place?.site.id ?? null,
        slot: place?.slot ?? null,
        checked_in_at: null,
      });
      await recordDonationSubmitted(
        trx,
        donorId,
        { date: donation.donation_date, units: donation.units },
        place ? { site: place.site.name, time: place.slot } : null,
        at,
      );
      await notify(
        ctx,
        trx,
        donorId,
        messages.bookingConfirmed(donation.donation_date, messagePlace(place)),
        at,
        donor,
      );
      return withSite(donation, place?.site);
    });
    return toDonation(row);
  } catch (error) {
    // Two submits at once: the partial unique index (one pending per donor) lets one through.
    if (isUniqueViolation(error)) throw pendingDonationExists();
    throw error;
  }
}
