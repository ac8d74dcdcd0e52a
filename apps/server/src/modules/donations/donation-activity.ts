import type { DatabaseOrTransaction } from '../../db/database';
import { recordActivity } from '../activity/activity.repository';

/**
 * The donor's activity feed entries about their donations, in one place so that every use case
 * (book, approve and reject here, the request approval's blood journey, the game) words them the
 * same way.
 */
export const DONATION_ACTIVITY_KINDS = {
  submitted: 'donation_submitted',
  approved: 'donation_approved',
  rejected: 'donation_rejected',
  /** The blood journey (PRODUCT.md 3.3): one of the donor's units was issued to a patient. */
  issued: 'donation_issued',
  achievementEarned: 'achievement_earned',
  achievementWithdrawn: 'achievement_withdrawn',
} as const;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '2026-03-12' -> '12 Mar', the style of PRODUCT.md's feed examples. */
export function formatFeedDate(isoDate: string): string {
  const [, month, day] = isoDate.split('-').map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]}`;
}

export interface DonationForFeed {
  /** The donation date, YYYY-MM-DD. */
  date: string;
  units: number;
}

const unitsText = (units: number) => `${units} unit${units === 1 ? '' : 's'}`;

export const donationActivityMessages = {
  submitted: (donation: DonationForFeed) =>
    `You offered to donate ${unitsText(donation.units)} on ${formatFeedDate(donation.date)}. It awaits approval.`,
  approved: (donation: DonationForFeed) =>
    `Your donation of ${formatFeedDate(donation.date)} was approved. Thank you for saving lives!`,
  rejected: (donation: DonationForFeed, reason?: string | null) =>
    `Your donation of ${formatFeedDate(donation.date)} was not approved${reason ? `: ${reason}` : '.'}`,
  // The hospital's address is the patient's free text: never shown to donors (PRODUCT.md 3.3).
  issued: (donationDate: string) => `Your donation of ${formatFeedDate(donationDate)} was issued to a hospital`,
  achievementEarned: (achievement: { name: string; points_reward: number }) =>
    `Achievement unlocked: ${achievement.name} (+${achievement.points_reward} points).`,
  achievementWithdrawn: (achievement: { name: string }) =>
    `Achievement withdrawn: ${achievement.name}, after a donation was not approved.`,
};

export function recordDonationSubmitted(
  db: DatabaseOrTransaction,
  donorId: number,
  donation: DonationForFeed,
  at: string,
) {
  return recordActivity(db, {
    userId: donorId,
    kind: DONATION_ACTIVITY_KINDS.submitted,
    message: donationActivityMessages.submitted(donation),
    at,
  });
}

/** For the admin's approve endpoint, inside its transaction. */
export function recordDonationApproved(
  db: DatabaseOrTransaction,
  donorId: number,
  donation: DonationForFeed,
  at: string,
) {
  return recordActivity(db, {
    userId: donorId,
    kind: DONATION_ACTIVITY_KINDS.approved,
    message: donationActivityMessages.approved(donation),
    at,
  });
}

/** For the admin's reject endpoint, inside its transaction (recomputeGameState records any withdrawn achievement). */
export function recordDonationRejected(
  db: DatabaseOrTransaction,
  donorId: number,
  donation: DonationForFeed,
  reason: string | null | undefined,
  at: string,
) {
  return recordActivity(db, {
    userId: donorId,
    kind: DONATION_ACTIVITY_KINDS.rejected,
    message: donationActivityMessages.rejected(donation, reason),
    at,
  });
}

/** For the request approval (requests/approve-request.ts), inside its transaction: where the donor's blood went. */
export function recordDonationIssued(
  db: DatabaseOrTransaction,
  donorId: number,
  donationDate: string,
  at: string,
) {
  return recordActivity(db, {
    userId: donorId,
    kind: DONATION_ACTIVITY_KINDS.issued,
    message: donationActivityMessages.issued(donationDate),
    at,
  });
}
