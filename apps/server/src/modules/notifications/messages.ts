import { FOLLOW_UP_MESSAGE, type DeferralType } from '@bloodbank/shared/donation-lifecycle';
import { MESSAGES } from '@bloodbank/shared/constants';
import { listInWords } from '@bloodbank/shared/components';
import { formatFeedDate, formatFeedDateWithYear } from '../donations/donation-activity';
import type { Message } from './notify';
import { asSentence } from '../../lib/sentences';

/**
 * The rest a donor needs between two donations (PRODUCT.md 3.2): `from` is the first day it allows
 * (null when they never gave blood). A message that says when they can book names the later of
 * this and the deferral's end (3.7), so it never invites a booking the server refuses.
 */
export interface DonationInterval {
  from: string | null;
  days: number;
}

const bookFromText = (interval: DonationInterval & { from: string }) =>
  `You can book a donation from ${formatFeedDateWithYear(interval.from)}, ${interval.days} days after your last donation.`;

/**
 * What the donor is told of a deferral: until when, as every other date on their screens reads
 * ("until 23 Dec 2026"), and what they can do; never why (the reason may name a test). A booking
 * on or after the deferral's end stands (the deferral cancelled any before it): the donor is told
 * so, not invited to book one more, which the one-booking rule would refuse.
 */
export const deferredText = (
  deferral: { type: DeferralType; until: string | null },
  interval?: DonationInterval,
  standingBooking?: string | null,
) => {
  if (deferral.type === 'permanent' || !deferral.until) return MESSAGES.deferredPermanently;
  const until = MESSAGES.deferredUntil(formatFeedDateWithYear(deferral.until));
  if (standingBooking) return `${until} Your booking for ${formatFeedDate(standingBooking)} stands.`;
  return interval?.from && interval.from > deferral.until
    ? `${until} ${bookFromText({ ...interval, from: interval.from })}`
    : `${until} You can book a donation for that day or later.`;
};

/**
 * Where a donor stands when their last deferral is lifted on `today`: they hold a booking already
 * (it stands; no invitation to book another), the interval still runs (they can book from its end),
 * or they can book now.
 */
const liftOutcome = (today: string, interval: DonationInterval | undefined, booked: boolean) =>
  booked
    ? ({ kind: 'booking_stands' } as const)
    : interval?.from && interval.from > today
      ? ({ kind: 'book_later', interval: { ...interval, from: interval.from } } as const)
      : ({ kind: 'book_now' } as const);

/** What the donor is told when their last deferral is lifted on `today` (liftOutcome). */
export const deferralLiftedText = (today: string, interval?: DonationInterval, booked = false) => {
  const outcome = liftOutcome(today, interval, booked);
  switch (outcome.kind) {
    case 'booking_stands':
      return 'Your deferral was lifted: your booking stands.';
    case 'book_later':
      return `Your deferral was lifted. ${bookFromText(outcome.interval)}`;
    case 'book_now':
      return 'Your deferral was lifted: you can book a donation again.';
  }
};

/**
 * The wording of every message the bank sends (PRODUCT.md 3.8), in one place: the in-app list and
 * the e-mail say the same. Donor screens are /donor/..., patient screens /patient/....
 */
const DONOR_DASHBOARD = '/donor/donor-dashboard';
const PATIENT_DASHBOARD = '/patient/patient-dashboard';

/** Where and when, as the messages say it, of a place a booking holds (sites/hold-slot.ts); null without sites. */
export const messagePlace = (place: { site: { name: string; address: string }; slot: string } | null | undefined) =>
  place ? { site: place.site.name, address: place.site.address, time: place.slot } : null;

/** The same, of a booking read with its site (donations.repository.ts DonationWithSite). */
export const bookingPlace = (booking: { slot: string | null; site_name: string | null; site_address: string | null }) =>
  booking.slot !== null && booking.site_name !== null
    ? { site: booking.site_name, address: booking.site_address ?? '', time: booking.slot }
    : null;

const where = (place: { site: string; address: string; time: string } | null) =>
  place ? ` at ${place.time}, ${place.site} (${place.address})` : '';

/** Staff's notice of expired units to discard: superseded by the next day's, and done once they are discarded. */
export const UNITS_EXPIRED_KIND = 'units_expired';

export const messages = {
  bookingConfirmed: (date: string, place: { site: string; address: string; time: string } | null): Message => ({
    kind: 'booking_confirmed',
    title: 'Your donation is booked',
    body: `Thank you! Your donation is booked for ${formatFeedDate(date)}${where(place)}. You can move or cancel it from your dashboard.`,
    path: DONOR_DASHBOARD,
    selfCaused: true,
  }),
  bookingMoved: (date: string, place: { site: string; address: string; time: string } | null): Message => ({
    kind: 'booking_confirmed',
    title: 'Your booking is moved',
    body: `Your donation is now booked for ${formatFeedDate(date)}${where(place)}. You can move or cancel it from your dashboard.`,
    path: DONOR_DASHBOARD,
    selfCaused: true,
  }),
  /** The donor cancelled it: said back, so their last message no longer reads "booked ... move or cancel it". */
  bookingCancelledByDonor: (date: string, place: { site: string; address: string; time: string } | null): Message => ({
    kind: 'booking_cancelled',
    title: 'Your booking is cancelled',
    body: `As you asked, your booking for ${formatFeedDate(date)}${where(place)} is cancelled. Thank you for letting us know. You can book another time whenever you are ready.`,
    path: DONOR_DASHBOARD,
    selfCaused: true,
  }),
  /** Staff closed the site at the booking's time (a closed date, or new hours): PRODUCT.md 3.6. */
  bookingCancelledSiteClosed: (date: string, place: { site: string; address: string; time: string }): Message => ({
    kind: 'booking_cancelled',
    title: 'Your booking is cancelled',
    // "Closed on 15 Dec at 10:00" read as if the site shut at ten, for a day closed whole.
    body: `Your booking at ${place.site} (${place.address}) on ${formatFeedDate(date)} at ${place.time} is cancelled: the site is closed then. We are sorry. Please book another time from your dashboard.`,
    path: DONOR_DASHBOARD,
  }),
  /**
   * The deferral of a reactive result cancelled a booking still to come (PRODUCT.md 3.2): the donor
   * is told, or they would come to a booking that no longer exists, with no reminder. No reason:
   * the follow-up text is all a donor learns of a result.
   */
  bookingCancelledFollowUp: (date: string, place: { site: string; address: string; time: string } | null): Message => ({
    kind: 'booking_cancelled',
    title: 'Your booking is cancelled',
    body: `Your booking for ${formatFeedDate(date)}${where(place)} is cancelled. Please contact the blood bank.`,
    path: DONOR_DASHBOARD,
  }),
  appointmentReminder: (date: string, place: { site: string; address: string; time: string } | null): Message => ({
    kind: 'appointment_reminder',
    title: 'See you tomorrow',
    body: `A reminder: you are booked to donate tomorrow, ${formatFeedDate(date)}${where(place)}. Eat well and drink plenty of water beforehand, and bring an ID.`,
    path: DONOR_DASHBOARD,
    selfCaused: true,
  }),
  /** `points`: all the collection credited, with the rewards of the `achievements` it earned (PRODUCT.md 3.4). */
  collectionRecorded: (date: string, points: number, achievements: readonly string[] = []): Message => ({
    kind: 'collection_recorded',
    title: 'Thank you for donating',
    body:
      `Your donation of ${formatFeedDate(date)} was collected and you earned ${points} points` +
      (achievements.length ? ` and the achievement${achievements.length === 1 ? '' : 's'} ${listInWords(achievements)}` : '') +
      '. It is now being tested; we will tell you when it is ready to save lives.',
    path: '/donor/game',
  }),
  donationReleased: (date: string): Message => ({
    kind: 'donation_released',
    title: 'Your blood is ready to save lives',
    body: `Your donation of ${formatFeedDate(date)} passed its tests and is now available to patients. Thank you!`,
    path: DONOR_DASHBOARD,
  }),
  // The only thing a donor learns of a reactive result (PRODUCT.md 3.2).
  donationFollowUp: (): Message => ({
    kind: 'donation_follow_up',
    title: 'Please contact the blood bank',
    body: FOLLOW_UP_MESSAGE,
    path: DONOR_DASHBOARD,
  }),
  /** `bookings.cancelled`: the date of the booking the deferral cancelled, if any (and its time and site, at a site). */
  deferralSet: (
    until: string | null,
    interval: DonationInterval,
    bookings: { cancelled?: string | undefined; cancelledPlace?: { site: string; address: string; time: string } | null; standing?: string | null } = {},
  ): Message => ({
    kind: 'deferral_set',
    title: 'You are deferred from donating',
    body:
      deferredText({ type: until ? 'temporary' : 'permanent', until }, interval, bookings.standing) +
      (bookings.cancelled ? ` Your booking for ${formatFeedDate(bookings.cancelled)}${where(bookings.cancelledPlace ?? null)} has been cancelled.` : ''),
    path: DONOR_DASHBOARD,
  }),
  deferralLifted: (today: string, interval: DonationInterval, booked = false): Message => {
    const canBookNow = liftOutcome(today, interval, booked).kind === 'book_now';
    return {
      kind: 'deferral_lifted',
      title: canBookNow ? 'You can book a donation again' : 'Your deferral was lifted',
      body: deferralLiftedText(today, interval, booked),
      path: canBookNow ? '/donor/donate' : DONOR_DASHBOARD,
    };
  },
  /** Staff turned the booking down before collection (PRODUCT.md 3.2): the reason is theirs, written for the donor. */
  bookingRejected: (date: string, place: { site: string; address: string; time: string } | null, reason: string | null): Message => ({
    kind: 'booking_rejected',
    title: 'Your booking was not accepted',
    body:
      `Your booking for ${formatFeedDate(date)}${where(place)} was not accepted by the blood bank` +
      (reason?.trim() ? `. Reason: ${asSentence(reason)}` : '.') +
      ' You do not need to come. You can book another time from your dashboard.',
    path: DONOR_DASHBOARD,
  }),
  /** The laboratory's ABO/Rh group differs from the donor's record, which now follows it (PRODUCT.md 3.2). */
  bloodGroupCorrected: (was: string | null, now: string): Message => ({
    kind: 'bloodgroup_corrected',
    title: `Your blood group is ${now}`,
    body:
      `The laboratory confirmed your blood group as ${now}` +
      (was ? `, where your record said ${was}` : '') +
      `. Your record now says ${now}; please give ${now} as your blood group from now on.`,
    path: DONOR_DASHBOARD,
  }),
  /** The donation's year is always said: plasma keeps for a year, so "19 Dec" could read as a day to come. */
  unitIssued: (donationDate: string, components: string): Message => ({
    kind: 'unit_issued',
    title: 'Your blood went to a patient',
    body: `Your donation of ${formatFeedDateWithYear(donationDate)} gave ${components} to a patient. Thank you for saving a life.`,
    path: DONOR_DASHBOARD,
  }),
  requestApproved: (activity: string): Message => ({ kind: 'request_approved', title: 'Your blood request was approved', body: activity, path: PATIENT_DASHBOARD }),
  requestRejected: (activity: string): Message => ({ kind: 'request_rejected', title: 'Your blood request was not approved', body: activity, path: PATIENT_DASHBOARD }),
  unitsExpired: (count: number): Message => ({
    kind: UNITS_EXPIRED_KIND,
    title: `${count} expired unit${count === 1 ? '' : 's'} to discard`,
    body: `${count} unit${count === 1 ? ' has' : 's have'} passed ${count === 1 ? 'its' : 'their'} expiry date and ${count === 1 ? 'is' : 'are'} ready to discard in Manage Blood ("Discard expired units").`,
    path: '/admin-blood',
  }),
  canDonateAgain: (): Message => ({
    kind: 'can_donate_again',
    title: 'You can donate again',
    body: 'From today you can give blood again. Book a time that suits you: every donation can save up to three lives.',
    path: '/donor/donate',
    action: 'Book a donation',
  }),
};
