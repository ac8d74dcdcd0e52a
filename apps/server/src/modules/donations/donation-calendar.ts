import ical from 'ical-generator';
import { TZDate } from '@date-fns/tz';
import { minutesOf } from '@bloodbank/shared/sites';
import type { AppContext } from '../../context';
import { conflict, forbidden, notFound } from '../../errors';
import { DONATION_DECISION_MESSAGES } from './donation-decisions';
import { findDonationForAdmin } from './donations.repository';

/** Where calendar files' SEQUENCE numbers count seconds from (before any file was made). */
const SEQUENCE_EPOCH = Date.UTC(2026, 0, 1);

export const CALENDAR_MESSAGES = {
  notYours: 'You can only download your own bookings.',
  notPending: 'Only a booking still to come can be added to a calendar.',
} as const;

/**
 * GET /donations/:id/calendar.ics: the donor's booking as an iCalendar file (RFC 5545, written by
 * ical-generator), for the phone's calendar. At a site: the slot, from its start to its end, in the
 * blood bank's time zone (written as UTC instants, which every calendar reads the same); by date
 * alone: an all-day event. Owner only, pending bookings only.
 */
export async function donationCalendar(ctx: AppContext, donorId: number, donationId: number): Promise<string> {
  const donation = await findDonationForAdmin(ctx.db, donationId);
  if (!donation) throw notFound(DONATION_DECISION_MESSAGES.donationNotFound);
  if (donation.donor_id !== donorId) throw forbidden(CALENDAR_MESSAGES.notYours);
  if (donation.status !== 'pending') throw conflict(CALENDAR_MESSAGES.notPending, 'not_pending');

  const calendar = ical({ prodId: { company: 'Blood Bank', product: 'Appointments', language: 'EN' }, name: 'Blood donation' });
  const units = `${donation.units} unit${donation.units === 1 ? '' : 's'}`;
  const description = `Your blood donation (${units}). Eat well and drink plenty of water beforehand, and bring an ID. To move or cancel it, open your donor dashboard.`;
  // The UID donors' calendars already hold for their bookings: a new form (with the bank's host, say)
  // would make every booking moved after an upgrade a second event beside the first.
  const id = `donation-${donation.id}@bloodbank`;
  // A moved booking keeps its UID, and a calendar replaces an event only by a higher SEQUENCE
  // (RFC 5545 3.8.7.4). No revision count is stored, so each file's SEQUENCE is the second it was
  // made (a 32-bit integer until 2094): a file downloaded after a move outranks one from before it.
  const now = ctx.clock.now();
  const revision = { stamp: now, sequence: Math.floor((now.getTime() - SEQUENCE_EPOCH) / 1000) };
  if (donation.slot !== null && donation.site_name !== null) {
    const [year, month, day] = donation.donation_date.split('-').map(Number) as [number, number, number];
    const startMinutes = minutesOf(donation.slot);
    const start = new TZDate(year, month - 1, day, Math.floor(startMinutes / 60), startMinutes % 60, ctx.config.timezone);
    const end = new Date(start.getTime() + (donation.site_slot_minutes ?? 15) * 60_000);
    calendar.createEvent({
      id,
      ...revision,
      start: new Date(start.getTime()),
      end,
      summary: `Blood donation at ${donation.site_name}`,
      location: `${donation.site_name}, ${donation.site_address ?? ''}`,
      description,
    });
  } else {
    calendar.createEvent({
      id,
      ...revision,
      // An all-day event's day is written from the UTC date: midnight UTC of the booked day is that day.
      start: new Date(`${donation.donation_date}T00:00:00Z`),
      allDay: true,
      summary: 'Blood donation',
      description,
    });
  }
  return calendar.toString();
}
