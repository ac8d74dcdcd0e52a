import type { DonationStatus } from '@bloodbank/shared/donation';
import { SITE_MESSAGES } from '@bloodbank/shared/sites';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import { alreadyDecidedDetail } from '../../decisions';
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

/** What became of a booking that is no longer pending, in the donor's words. */
const BOOKING_OUTCOMES: Record<Exclude<DonationStatus, 'pending'>, string> = {
  cancelled: 'This booking was cancelled.',
  rejected: 'This booking was declined by the blood bank.',
  deferred: 'This booking ended in a deferral at screening.',
  collected: 'This donation has already been collected.',
  released: 'This donation has already been collected.',
  discarded: 'This donation has already been collected.',
  no_show: 'The day of this booking has passed.',
};

/**
 * The 409 when a donor moves or cancels a booking that is no longer pending: it says what became of
 * it (cancelled in another tab, say), not only that it is not pending.
 */
export function bookingClosed(status: DonationStatus, action: 'moved' | 'cancelled') {
  const outcome = status === 'pending' ? 'This booking has just changed.' : BOOKING_OUTCOMES[status];
  return conflict(`${outcome} It can no longer be ${action}.`, 'not_pending');
}

/** The 409 when a donor moves or cancels a booking staff have checked them in for. */
export function checkedInBooking(action: 'moved' | 'cancelled') {
  return conflict(SITE_MESSAGES.checkedInBooking(action), 'checked_in');
}

/** What became of a booking, in staff's words: the 409 says it, so another admin's decision is not a mystery. */
const DECIDED_OUTCOMES: Record<Exclude<DonationStatus, 'pending'>, string> = {
  cancelled: 'the donor cancelled it',
  rejected: 'it was rejected',
  deferred: 'the donor was deferred at screening',
  collected: 'it was collected and awaits its test results',
  released: 'it was collected and released',
  discarded: 'it was collected and discarded after a reactive test',
  no_show: 'the donor did not come',
};

/** The 409 for a donation that is no longer (or not yet) in the state a step needs. */
function wrongState(expected: DonationStatus, actual: DonationStatus) {
  if (expected === 'pending') {
    const outcome = actual === 'pending' ? null : DECIDED_OUTCOMES[actual];
    return conflict(alreadyDecidedDetail(DONATION_DECISION_MESSAGES.donationDecided, outcome), 'already_decided');
  }
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

/**
 * Why a step on a booking found nothing to change in its conditional update: re-read in the same
 * transaction, the booking was decided meanwhile, or moved by its donor to another day (not due
 * yet for a collection; not today for a check-in), or checked in by someone else.
 */
export async function bookingChangedMeanwhile(trx: DatabaseOrTransaction, donationId: number, step: 'collect' | 'check-in', today: string) {
  const now = await findDonationForAdmin(trx, donationId);
  if (!now) return notFound(DONATION_DECISION_MESSAGES.donationNotFound);
  if (now.status !== 'pending') return wrongState('pending', now.status);
  if (step === 'collect' && now.donation_date > today) return conflict(DONATION_DECISION_MESSAGES.donationNotYetDue(now.donation_date), 'not_yet_due');
  if (step === 'check-in' && now.donation_date !== today) return conflict(SITE_MESSAGES.checkInDay(now.donation_date), 'not_today');
  if (step === 'check-in' && now.checked_in_at !== null) return conflict(SITE_MESSAGES.checkedInAlready, 'checked_in');
  if (step === 'check-in') return conflict(SITE_MESSAGES.bookingMoved, 'moved');
  return movedMeanwhile('pending');
}
