import { FOLLOW_UP_MESSAGE, type DeferralType } from '@bloodbank/shared/donation-lifecycle';
import { MESSAGES } from '@bloodbank/shared/constants';
import { formatFeedDate, formatFeedDateWithYear } from '../donations/donation-activity';
import type { Message } from './notify';

/**
 * What the donor is told of a deferral: until when, as every other date on their screens reads
 * ("until 23 Dec 2026"), and what they can do; never why (the reason may name a test).
 */
export const deferredText = (deferral: { type: DeferralType; until: string | null }) =>
  deferral.type === 'permanent' || !deferral.until
    ? MESSAGES.deferredPermanently
    : `${MESSAGES.deferredUntil(formatFeedDateWithYear(deferral.until))} You can book a donation for that day or later.`;

/**
 * The wording of every message the bank sends (PRODUCT.md 3.8), in one place: the in-app list and
 * the e-mail say the same. Donor screens are /donor/..., patient screens /patient/....
 */
const DONOR_DASHBOARD = '/donor/donor-dashboard';
const PATIENT_DASHBOARD = '/patient/patient-dashboard';

/** Where and when, as the messages say it, of a place a booking holds (sites/hold-slot.ts); null without sites. */
export const messagePlace = (place: { site: { name: string; address: string }; slot: string } | null | undefined) =>
  place ? { site: place.site.name, address: place.site.address, time: place.slot } : null;

const where = (place: { site: string; address: string; time: string } | null) =>
  place ? ` at ${place.time}, ${place.site} (${place.address})` : '';

export const messages = {
  bookingConfirmed: (date: string, place: { site: string; address: string; time: string } | null): Message => ({
    kind: 'booking_confirmed',
    title: 'Your donation is booked',
    body: `Thank you! Your donation is booked for ${formatFeedDate(date)}${where(place)}. You can move or cancel it from your dashboard.`,
    path: DONOR_DASHBOARD,
  }),
  bookingMoved: (date: string, place: { site: string; address: string; time: string } | null): Message => ({
    kind: 'booking_confirmed',
    title: 'Your booking is moved',
    body: `Your donation is now booked for ${formatFeedDate(date)}${where(place)}. You can move or cancel it from your dashboard.`,
    path: DONOR_DASHBOARD,
  }),
  /** Staff closed the site at the booking's time (a closed date, or new hours): PRODUCT.md 3.6. */
  bookingCancelledSiteClosed: (date: string, place: { site: string; address: string; time: string }): Message => ({
    kind: 'booking_cancelled',
    title: 'Your booking is cancelled',
    body: `${place.site} (${place.address}) is closed on ${formatFeedDate(date)} at ${place.time}, so your booking there is cancelled. We are sorry. Please book another time from your dashboard.`,
    path: DONOR_DASHBOARD,
  }),
  appointmentReminder: (date: string, place: { site: string; address: string; time: string } | null): Message => ({
    kind: 'appointment_reminder',
    title: 'See you tomorrow',
    body: `A reminder: you are booked to donate tomorrow, ${formatFeedDate(date)}${where(place)}. Eat well and drink plenty of water beforehand, and bring an ID.`,
    path: DONOR_DASHBOARD,
  }),
  collectionRecorded: (date: string, points: number): Message => ({
    kind: 'collection_recorded',
    title: 'Thank you for donating',
    body: `Your donation of ${formatFeedDate(date)} was collected and you earned ${points} points. It is now being tested; we will tell you when it is ready to save lives.`,
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
  /** `cancelledBooking`: the date of the booking the deferral cancelled, if any. */
  deferralSet: (until: string | null, cancelledBooking?: string): Message => ({
    kind: 'deferral_set',
    title: 'You are deferred from donating',
    body:
      deferredText({ type: until ? 'temporary' : 'permanent', until }) +
      (cancelledBooking ? ` Your booking for ${formatFeedDate(cancelledBooking)} has been cancelled.` : ''),
    path: DONOR_DASHBOARD,
  }),
  deferralLifted: (): Message => ({
    kind: 'deferral_lifted',
    title: 'You can book a donation again',
    body: 'Your deferral was lifted: you can book a donation again.',
    path: '/donor/donate',
  }),
  unitIssued: (donationDate: string, components: string): Message => ({
    kind: 'unit_issued',
    title: 'Your blood went to a patient',
    body: `Your donation of ${formatFeedDate(donationDate)} gave ${components} to a patient today. Thank you for saving a life.`,
    path: DONOR_DASHBOARD,
  }),
  requestApproved: (activity: string): Message => ({ kind: 'request_approved', title: 'Your blood request was approved', body: activity, path: PATIENT_DASHBOARD }),
  requestRejected: (activity: string): Message => ({ kind: 'request_rejected', title: 'Your blood request was not approved', body: activity, path: PATIENT_DASHBOARD }),
  unitsExpired: (count: number): Message => ({
    kind: 'units_expired',
    title: `${count} expired unit${count === 1 ? '' : 's'} to discard`,
    body: `${count} unit${count === 1 ? ' has' : 's have'} passed ${count === 1 ? 'its' : 'their'} expiry date and ${count === 1 ? 'is' : 'are'} ready to discard in Manage Blood ("Discard expired units").`,
    path: '/admin-blood',
  }),
  canDonateAgain: (): Message => ({
    kind: 'can_donate_again',
    title: 'You can donate again',
    body: 'From today you can give blood again. Book a time that suits you: every donation can save up to three lives.',
    path: '/donor/donate',
  }),
};
