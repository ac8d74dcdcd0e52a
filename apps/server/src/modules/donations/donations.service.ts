import { DONATION_INTERVAL_DAYS, MESSAGES, RECENT_ACTIVITY_LIMIT } from '@bloodbank/shared/constants';
import { addDays } from '@bloodbank/shared/dates';
import type { Donation, DonationInput, DonorSummary } from '@bloodbank/shared/donation';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import type { DonationRow } from '../../db/types';
import { AppError, conflict } from '../../errors';
import { listRecentActivities } from '../activity/activity.repository';
import { recordDonationSubmitted } from './donation-activity';
import {
  countDonationsByStatus,
  findDonorBloodGroup,
  findLastApprovedDonationDate,
  hasPendingDonation,
  insertDonation,
  listDonationsOfDonor,
} from './donations.repository';

export function toDonation(row: DonationRow): Donation {
  return {
    id: row.id,
    bloodgroup: row.bloodgroup,
    unit: row.units,
    date: row.donation_date,
    disease: row.disease,
    lastDonation: row.last_donation,
    status: row.status,
    rejection_reason: row.rejection_reason,
    created_at: row.created_at,
    decided_at: row.decided_at,
  };
}

const pendingDonationExists = () => conflict(MESSAGES.pendingDonationExists, 'donation_pending');

/**
 * The chosen date is too early: a 422 on the `date` field (not a 409), because the donor can fix
 * it by picking a later date in the same form.
 */
const tooSoonAfterLastDonation = (eligibleFrom: string) => {
  const message = MESSAGES.donateAgainFrom(eligibleFrom);
  return new AppError(422, message, 'not_eligible_yet', { errors: { date: message } });
};

/** First day a donor may donate after their last approved donation (PRODUCT.md 3.2), or null if none. */
export async function eligibleFromDate(db: DatabaseOrTransaction, donorId: number): Promise<string | null> {
  const lastApproved = await findLastApprovedDonationDate(db, donorId);
  return lastApproved ? addDays(lastApproved, DONATION_INTERVAL_DAYS) : null;
}

export async function submitDonation(
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
      if (await hasPendingDonation(trx, donorId)) throw pendingDonationExists();
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

export async function listMyDonations(ctx: AppContext, donorId: number): Promise<Donation[]> {
  const rows = await listDonationsOfDonor(ctx.db, donorId);
  return rows.map(toDonation);
}

export async function getDonorSummary(
  ctx: AppContext,
  donorId: number,
  today = ctx.clock.today(),
): Promise<DonorSummary> {
  const [counts, eligibleFrom, activities] = await Promise.all([
    countDonationsByStatus(ctx.db, donorId),
    eligibleFromDate(ctx.db, donorId),
    listRecentActivities(ctx.db, donorId, RECENT_ACTIVITY_LIMIT),
  ]);

  let nextEligibleDate: string | null;
  let notEligibleReason: string | null = null;
  if (counts.pending > 0) {
    nextEligibleDate = null;
    notEligibleReason = MESSAGES.pendingDonationExists;
  } else if (eligibleFrom && eligibleFrom > today) {
    nextEligibleDate = eligibleFrom;
    notEligibleReason = MESSAGES.donateAgainFrom(eligibleFrom);
  } else {
    nextEligibleDate = today;
  }

  return {
    made: counts.pending + counts.approved + counts.rejected,
    pending: counts.pending,
    approved: counts.approved,
    rejected: counts.rejected,
    next_eligible_date: nextEligibleDate,
    not_eligible_reason: notEligibleReason,
    activities,
  };
}
