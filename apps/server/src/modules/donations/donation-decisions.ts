import type { AppContext } from '../../context';
import { conflict, notFound } from '../../errors';
import { findDonationForAdmin } from './donations.repository';

/** What approving and rejecting a donation share (approve-donation.ts, reject-donation.ts). */
export const DONATION_DECISION_MESSAGES = {
  donationNotFound: 'Donation not found',
  donationDecided: 'This donation has already been decided.',
  /** Blood that has not been given yet cannot be stock (PRODUCT.md 3.2). */
  donationNotYetDue: (date: string) => `This donation is booked for ${date} and can be collected from that day.`,
} as const;

/**
 * The donation, if it can still be decided: 404 when unknown, 409 once decided (PRODUCT.md 3.2).
 * This read only picks the answer; the conditional update in the transaction decides races.
 */
export async function findPendingDonation(ctx: AppContext, donationId: number) {
  const donation = await findDonationForAdmin(ctx.db, donationId);
  if (!donation) throw notFound(DONATION_DECISION_MESSAGES.donationNotFound);
  if (donation.status !== 'pending') throw conflict(DONATION_DECISION_MESSAGES.donationDecided, 'already_decided');
  return donation;
}
