import type { Transaction } from 'kysely';
import type { DatabaseOrTransaction } from '../../db/database';
import type { DB, DonationRow } from '../../db/types';
import { componentsInWords, type Component } from '@bloodbank/shared/components';
import { FOLLOW_UP_MESSAGE } from '@bloodbank/shared/donation-lifecycle';
import type { Principal } from '../../plugins/access';
import { recordActivity } from '../activity/activity.repository';
import { recordAudit } from '../audit/audit.repository';
import { cancelPendingBookingOf } from './donations.repository';
import { asSentence } from '../../lib/sentences';

/**
 * The donor's activity feed entries about their donations, in one place so that every use case
 * (book, cancel, collect, test results and reject, the request approval's blood journey, the game) words them the
 * same way.
 */
export const DONATION_ACTIVITY_KINDS = {
  submitted: 'donation_submitted',
  cancelled: 'donation_cancelled',
  moved: 'donation_moved',
  noShow: 'donation_no_show',
  collected: 'donation_collected',
  released: 'donation_released',
  followUp: 'donation_follow_up',
  bloodGroupCorrected: 'blood_group_corrected',
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

/** '2027-03-12' -> '12 Mar 2027': a date that may fall in another year (a deferral's end). */
export function formatFeedDateWithYear(isoDate: string): string {
  return `${formatFeedDate(isoDate)} ${isoDate.slice(0, 4)}`;
}

export interface DonationForFeed {
  /** The donation date, YYYY-MM-DD. */
  date: string;
  units: number;
}

/** Where and when a booking at a site is. */
export interface AppointmentPlace {
  site: string;
  time: string;
}
const placeText = (place: AppointmentPlace | null | undefined) => (place ? ` at ${place.time}, ${place.site}` : '');

const unitsText = (units: number) => `${units} unit${units === 1 ? '' : 's'}`;

export const donationActivityMessages = {
  submitted: (donation: DonationForFeed, place?: AppointmentPlace | null) =>
    `You booked a donation of ${unitsText(donation.units)} for ${formatFeedDate(donation.date)}${placeText(place)}.`,
  cancelled: (donation: DonationForFeed) => `You cancelled your booking for ${formatFeedDate(donation.date)}.`,
  /** Never why: a deferral's reason may name a test (PRODUCT.md 3.2). */
  cancelledByDeferral: (donation: DonationForFeed) =>
    `Your booking for ${formatFeedDate(donation.date)} was cancelled: you cannot donate on that day.`,
  cancelledAccountClosed: (donation: DonationForFeed) =>
    `Your booking for ${formatFeedDate(donation.date)} was cancelled: your account was closed.`,
  cancelledSiteClosed: (donation: DonationForFeed, place: AppointmentPlace) =>
    `Your booking for ${formatFeedDate(donation.date)}${placeText(place)} was cancelled: the site is closed at that time.`,
  moved: (donation: DonationForFeed, place: AppointmentPlace | null) =>
    `You moved your booking to ${formatFeedDate(donation.date)}${placeText(place)}.`,
  noShow: (donation: DonationForFeed) =>
    `You missed your appointment of ${formatFeedDate(donation.date)}. You can book a new one whenever you like.`,
  collected: (donation: DonationForFeed, points: number) =>
    `Your donation of ${formatFeedDate(donation.date)} was collected: +${points} points. It is now being tested.`,
  released: (donation: DonationForFeed) =>
    `Your donation of ${formatFeedDate(donation.date)} passed its tests and is ready to save lives. Thank you!`,
  // The only thing a donor learns of a reactive result (PRODUCT.md 3.2).
  followUp: () => FOLLOW_UP_MESSAGE,
  bloodGroupCorrected: (bloodgroup: string) =>
    `The laboratory confirmed your blood group as ${bloodgroup}; your record now says ${bloodgroup}.`,
  rejected: (donation: DonationForFeed, reason?: string | null) =>
    `Your donation of ${formatFeedDate(donation.date)} was not approved${reason?.trim() ? `: ${asSentence(reason)}` : '.'}`,
  // The hospital's address is the patient's free text: never shown to donors (PRODUCT.md 3.3).
  issued: (donationDate: string, components: readonly Component[] = ['whole_blood']) =>
    `Your donation of ${formatFeedDate(donationDate)} gave ${componentsInWords(components)} to a patient.`,
  achievementEarned: (achievement: { name: string; points_reward: number }) =>
    `Achievement unlocked: ${achievement.name} (+${achievement.points_reward} points).`,
  achievementWithdrawn: (achievement: { name: string }) => `Achievement withdrawn: ${achievement.name}.`,
};

export function recordDonationSubmitted(
  db: DatabaseOrTransaction,
  donorId: number,
  donation: DonationForFeed,
  place: AppointmentPlace | null,
  at: string,
) {
  return recordActivity(db, {
    userId: donorId,
    kind: DONATION_ACTIVITY_KINDS.submitted,
    message: donationActivityMessages.submitted(donation, place),
    at,
  });
}

/** A feed entry about one of the donor's donations, inside the transaction that changed it. */
export function recordDonationActivity(
  db: DatabaseOrTransaction,
  donorId: number,
  kind: (typeof DONATION_ACTIVITY_KINDS)[keyof typeof DONATION_ACTIVITY_KINDS],
  message: string,
  at: string,
) {
  return recordActivity(db, { userId: donorId, kind, message, at });
}

/**
 * A booking that staff's action cancelled (a deferral, decision 0016; the site closed at its time,
 * decision 0017), inside that action's transaction: the donor's feed says so in `message`, and the
 * audit log names the booking and the cause (`cause`, beside the new status).
 */
export async function recordBookingCancelledByStaff(
  db: DatabaseOrTransaction,
  admin: Principal,
  booking: { id: number; donor_id: number },
  message: string,
  cause: Record<string, unknown>,
  at: string,
): Promise<void> {
  await recordDonationActivity(db, booking.donor_id, DONATION_ACTIVITY_KINDS.cancelled, message, at);
  await recordAudit(db, {
    actorId: admin.id,
    actor: admin.username,
    action: 'donation.cancelled',
    entity: 'donation',
    entityId: booking.id,
    before: { status: 'pending' },
    after: { status: 'cancelled', ...cause },
    at,
  });
}

/**
 * The donor's pending booking (at most one; only one booked before `bookedBefore` when given),
 * cancelled because of staff's action on the donor (a deferral, a closed account): the reason on
 * the booking, the donor's feed entry and the audit entry. Answers the booking, or undefined when
 * none was pending.
 */
export async function cancelPendingBookingByStaff(
  trx: Transaction<DB>,
  admin: Principal,
  donorId: number,
  cancellation: {
    reason: string;
    bookedBefore?: string | null;
    feedMessage: (donation: DonationForFeed) => string;
    cause: Record<string, unknown>;
    at: string;
  },
): Promise<DonationRow | undefined> {
  const { reason, bookedBefore, feedMessage, cause, at } = cancellation;
  const cancelled = await cancelPendingBookingOf(trx, donorId, { by: admin.id, at, reason, bookedBefore });
  if (cancelled) {
    const message = feedMessage({ date: cancelled.donation_date, units: cancelled.units });
    await recordBookingCancelledByStaff(trx, admin, cancelled, message, cause, at);
  }
  return cancelled;
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
  components: readonly Component[],
  at: string,
) {
  return recordActivity(db, {
    userId: donorId,
    kind: DONATION_ACTIVITY_KINDS.issued,
    message: donationActivityMessages.issued(donationDate, components),
    at,
  });
}
