import { MESSAGES } from '@bloodbank/shared/constants';
import type { Donation, DonorDonationStatus, DonorSummary } from '@bloodbank/shared/donation';
import { FOLLOW_UP_MESSAGE } from '@bloodbank/shared/donation-lifecycle';
import { formatDate, formatShortDate } from '@/lib/format';

/**
 * A donation's status in the donor's words (PRODUCT.md 3.2). Test results are confidential: the
 * server already names a discarded donation `follow_up` for its donor, and it reads only as needing
 * follow-up, never why.
 */
export const DONOR_STATUS_BADGE: Record<DonorDonationStatus, { label: string; color: string }> = {
  pending: { label: 'Booked', color: 'yellow.7' },
  cancelled: { label: 'Cancelled', color: 'gray' },
  rejected: { label: 'Rejected', color: 'red' },
  deferred: { label: 'Deferred', color: 'orange' },
  collected: { label: 'Collected, in testing', color: 'blue' },
  released: { label: 'Released', color: 'teal' },
  follow_up: { label: 'Needs follow-up', color: 'gray' },
  no_show: { label: 'Missed appointment', color: 'gray' },
};

/**
 * The day a donation is listed under: the day the donor gave blood (or was screened), which can be
 * later than the booked day and is what their next date counts from; the booked day until then.
 */
export const dayOf = (donation: Donation): string => donation.collected_on ?? donation.date;

/** What the history says beside a status: the staff's rejection reason, or the follow-up text. */
export function donationNote(donation: Donation): string | null {
  if (donation.status === 'rejected') return donation.rejection_reason;
  if (donation.status === 'follow_up') return FOLLOW_UP_MESSAGE;
  return null;
}

/** The deferral notice: "Deferred until 3 Jan 2027", or the permanent message. */
export function deferralText(deferred: NonNullable<DonorSummary['deferred']>): string {
  return deferred.type === 'permanent' || !deferred.until
    ? MESSAGES.deferredPermanently
    : `Deferred until ${formatDate(deferred.until)}`;
}

/** Where the latest booking stands, in words: a headline and, where there is one, a line more. */
export function latestBookingState(
  donation: Donation,
  deferred: DonorSummary['deferred'],
): { headline: string; detail: string | null } {
  switch (donation.status) {
    case 'pending':
      return {
        headline: `Booked for ${formatShortDate(donation.date)}`,
        detail: donation.appointment
          ? 'Please come at your time; staff record your donation there.'
          : 'Come to the blood bank on that day or after; staff record your donation there.',
      };
    case 'collected':
      return {
        headline: 'Collected, in testing',
        detail: 'Thank you for donating. Your blood is tested before it can be given to a patient.',
      };
    case 'released':
      return { headline: 'Released: thank you', detail: 'Your blood goes to the patients who need it.' };
    case 'deferred':
      return deferred
        ? { headline: deferralText(deferred), detail: null }
        : { headline: 'Deferred', detail: 'Your deferral has ended: you can book a donation again.' };
    case 'follow_up':
      return { headline: FOLLOW_UP_MESSAGE, detail: null };
    case 'rejected':
      return {
        headline: 'Rejected',
        detail: donation.rejection_reason ? `Reason: ${donation.rejection_reason}` : null,
      };
    case 'cancelled':
      // By the donor, or by the bank when a deferral covers its day (the feed says which).
      return {
        headline: 'Cancelled',
        detail: `Your booking for ${formatDate(donation.date)} was cancelled.`,
      };
    case 'no_show':
      return {
        headline: `Missed appointment on ${formatDate(donation.date)}`,
        detail: 'No donation was recorded that day. You are welcome to book a new time.',
      };
  }
}
