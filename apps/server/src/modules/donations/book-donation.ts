import { MESSAGES } from '@bloodbank/shared/constants';
import type { Donation, DonationInput } from '@bloodbank/shared/donation';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { AppError, conflict } from '../../errors';
import { recordDonationSubmitted } from './donation-activity';
import { findDonorBloodGroup, hasPendingDonation, insertDonation } from './donations.repository';
import { eligibleFromDate } from './eligibility';
import { toDonation } from './donations.service';

/**
 * POST /donations: a donor books (offers) a donation (PRODUCT.md 3.2). The form's fields and limits
 * (units 1..2, a date from today to 90 days ahead, the confirmation) are checked by the body
 * schema; the eligibility rules are checked here, inside the write, so that two bookings at once
 * see each other.
 */

const pendingDonationExists = () => conflict(MESSAGES.pendingDonationExists, 'donation_pending');

/**
 * The chosen date is too early: a 422 on the `date` field (not a 409), because the donor can fix
 * it by picking a later date in the same form.
 */
const tooSoonAfterLastDonation = (eligibleFrom: string) => {
  const message = MESSAGES.donateAgainFrom(eligibleFrom);
  return new AppError(422, message, 'not_eligible_yet', { errors: { date: message } });
};

export async function bookDonation(
  ctx: AppContext,
  donorId: number,
  input: DonationInput,
): Promise<Donation> {
  const at = ctx.clock.now().toISOString();
  try {
    const row = await ctx.writes.run(async (trx) => {
      const bloodgroup = await findDonorBloodGroup(trx, donorId);
      if (!bloodgroup)
        throw conflict('Your account has no blood group. Please contact the blood bank.', 'no_blood_group');
      // At most one pending donation per donor (409).
      if (await hasPendingDonation(trx, donorId)) throw pendingDonationExists();
      // At least 90 days after the last approved donation (422 on the date).
      const eligibleFrom = await eligibleFromDate(trx, donorId);
      if (eligibleFrom && input.date < eligibleFrom) throw tooSoonAfterLastDonation(eligibleFrom);

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
      });
      await recordDonationSubmitted(
        trx,
        donorId,
        { date: donation.donation_date, units: donation.units },
        at,
      );
      return donation;
    });
    return toDonation(row);
  } catch (error) {
    // Two submits at once: the partial unique index (one pending per donor) lets one through.
    if (isUniqueViolation(error)) throw pendingDonationExists();
    throw error;
  }
}
