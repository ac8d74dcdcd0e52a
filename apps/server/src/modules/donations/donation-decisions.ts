import type { DonationStatus } from '@bloodbank/shared/donation';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../errors';
import { findDonationForAdmin } from './donations.repository';

/** What staff's steps on a donation share (collect-donation.ts, record-test-results.ts, reject-donation.ts). */
export const DONATION_DECISION_MESSAGES = {
  donationNotFound: 'Donation not found',
  donationDecided: 'This donation has already been decided.',
  /** Blood that has not been given yet cannot be collected (PRODUCT.md 3.2). */
  donationNotYetDue: (date: string) => `This donation is booked for ${date} and can be collected from that day.`,
  resultsRecorded: 'Test results have already been recorded for this donation.',
  notCollected: 'Test results can only be recorded for a collected donation.',
} as const;

/** The 409 for a donation that is no longer (or not yet) in the state a step needs. */
function wrongState(expected: DonationStatus, actual: DonationStatus) {
  if (expected === 'pending') return conflict(DONATION_DECISION_MESSAGES.donationDecided, 'already_decided');
  if (actual === 'released' || actual === 'discarded') return conflict(DONATION_DECISION_MESSAGES.resultsRecorded, 'results_recorded');
  return conflict(DONATION_DECISION_MESSAGES.notCollected, 'not_collected');
}

/**
 * The donation, if it is in the state this step needs: 404 when unknown, 409 otherwise. This read
 * only picks the answer; the conditional update in the transaction (moveDonation) decides races.
 */
export async function findDonationInState(ctx: AppContext, donationId: number, expected: DonationStatus) {
  const donation = await findDonationForAdmin(ctx.db, donationId);
  if (!donation) throw notFound(DONATION_DECISION_MESSAGES.donationNotFound);
  if (donation.status !== expected) throw wrongState(expected, donation.status);
  return donation;
}

/**
 * The 409 when the conditional update found the donation moved by someone else meanwhile: decided,
 * when it was pending; given its results, when it was collected.
 */
export const movedMeanwhile = (expected: 'pending' | 'collected') =>
  expected === 'pending'
    ? conflict(DONATION_DECISION_MESSAGES.donationDecided, 'already_decided')
    : conflict(DONATION_DECISION_MESSAGES.resultsRecorded, 'results_recorded');
