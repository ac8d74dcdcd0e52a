import type { PublicSite, Site, SiteDay, Slot, WeeklyHours, AppointmentState } from '@bloodbank/shared/sites';
import { BOOKING_DAYS_AHEAD } from '@bloodbank/shared/constants';
import { addDays } from '@bloodbank/shared/dates';
import type { AppContext } from '../../context';
import type { DonationStatus } from '@bloodbank/shared/donation';
import type { SitesTable } from '../../db/types';
import type { Selectable } from 'kysely';
import { notFound } from '../../errors';
import { fullNameOf } from '../users/users.service';
import { clockShowsOn, openingHoursOn, slotEnd, slotIsAhead, slotStartsOn } from './opening-hours';
import { findSiteRow, listDayBookings, listSiteRows, placesTakenByTime } from './sites.repository';

/**
 * What the site screens read: the sites, a day's free slots (the donor's booking form) and a day's
 * list (staff). The changes are create-site.ts, update-site.ts; a booking holds its place through
 * hold-slot.ts.
 */

export type SiteRow = Selectable<SitesTable>;

export function toSite(row: SiteRow): Site {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    hours: JSON.parse(row.hours) as WeeklyHours,
    slot_minutes: row.slot_minutes,
    capacity: row.capacity,
    closed_dates: JSON.parse(row.closed_dates) as string[],
    active: row.active === 1,
  };
}

export const siteNotFound = () => notFound('Site not found');

export async function listSites(ctx: AppContext): Promise<Site[]> {
  return (await listSiteRows(ctx.db)).map(toSite);
}

/** The sites a donor may book at: the active ones, without their capacity. */
export async function listBookableSites(ctx: AppContext): Promise<PublicSite[]> {
  return (await listSiteRows(ctx.db))
    .filter((row) => row.active === 1)
    .map((row) => {
      const { capacity: _capacity, active: _active, ...site } = toSite(row);
      return site;
    });
}

/**
 * Every slot of the day with its free places (0 when full); none when the site is closed; today,
 * only the slots that have not begun. 404 for an unknown or inactive site.
 */
export async function listSlots(ctx: AppContext, siteId: number, date: string): Promise<Slot[]> {
  const row = await findSiteRow(ctx.db, siteId);
  if (!row || row.active !== 1) throw siteNotFound();
  const site = toSite(row);
  const now = { today: ctx.clock.today(), time: ctx.clock.time() };
  // Past the booking window no slot can be booked (PRODUCT.md 3.2): none is offered either.
  if (date > addDays(now.today, BOOKING_DAYS_AHEAD)) return [];
  const shown = clockShowsOn(date, ctx.config.timezone);
  const starts = slotStartsOn(site, date).filter((start) => slotIsAhead(date, start, now) && shown(start));
  if (starts.length === 0) return [];
  const takenAt = await placesTakenByTime(ctx.db, siteId, date);
  // A booking holds its place in the slot its time falls in (countPlacesTaken).
  const taken = (start: string) => {
    const ends = slotEnd(start, site.slot_minutes);
    let places = 0;
    for (const [time, count] of takenAt) if (time >= start && time < ends) places += count;
    return places;
  };
  return starts.map((time) => ({ time, available: Math.max(0, site.capacity - taken(time)) }));
}

/** Where a booking of the day stands, as staff see it on the day list. */
export function appointmentStateOf(status: DonationStatus, checkedInAt: string | null): AppointmentState {
  switch (status) {
    case 'pending':
      return checkedInAt ? 'checked_in' : 'booked';
    case 'deferred':
      return 'deferred';
    case 'no_show':
      return 'no_show';
    default:
      // collected, released, discarded: the blood was taken (what the lab found is another screen's).
      return 'collected';
  }
}

/** A site's day: its hours, who comes when, and how many are booked, checked in, collected, deferred, no-shows. */
export async function getSiteDay(ctx: AppContext, siteId: number, date: string): Promise<SiteDay> {
  const row = await findSiteRow(ctx.db, siteId);
  if (!row) throw siteNotFound();
  const site = toSite(row);
  const bookings = await listDayBookings(ctx.db, siteId, date);
  const counts = { booked: 0, checked_in: 0, collected: 0, deferred: 0, no_show: 0 };
  // Today's bookings whose slot is over with nobody checked in; a past day's become no-shows (mark-no-shows.ts).
  const now = date === ctx.clock.today() ? ctx.clock.time() : null;
  const appointments = bookings.map((booking) => {
    const state = appointmentStateOf(booking.status, booking.checked_in_at);
    counts[state] += 1;
    const late = state === 'booked' && now !== null && booking.slot !== null && slotEnd(booking.slot, site.slot_minutes) <= now;
    return {
      donation_id: booking.id,
      time: booking.slot ?? '',
      donor_id: booking.donor_id,
      donor_name: fullNameOf(booking),
      bloodgroup: booking.bloodgroup,
      units: booking.units,
      state,
      late,
      checked_in_at: booking.checked_in_at,
      // What the donor declared on the form, for the staff who collect from this list.
      disease: booking.disease,
      lastDonation: booking.last_donation,
    };
  });
  const hours = openingHoursOn(site, date);
  return { site, date, open: hours !== null, hours, counts, appointments };
}
