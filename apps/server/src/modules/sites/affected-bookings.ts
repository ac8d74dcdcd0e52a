import type { AffectedBookings, SiteCalendarChange } from '@bloodbank/shared/sites';
import type { AppContext } from '../../context';
import { fullNameOf } from '../users/users.service';
import { isOpenAt, type SiteCalendar } from './opening-hours';
import { findSiteRow, listPendingBookingsFrom } from './sites.repository';
import { siteNotFound, toSite } from './sites.service';

/**
 * The bookings a site's calendar closes (decision 0017): those at a time it does not keep, a closed
 * date or weekday, before opening or from closing on. A booking made by date alone has no time and
 * is never closed by hours.
 */
export function bookingsAtClosedTimes<Booking extends { donation_date: string; slot: string | null }>(
  calendar: SiteCalendar,
  bookings: readonly Booking[],
): (Booking & { slot: string })[] {
  return bookings.filter(
    (booking): booking is Booking & { slot: string } =>
      booking.slot !== null && !isOpenAt(calendar, booking.donation_date, booking.slot),
  );
}

/**
 * POST /admin/sites/:id/affected-bookings: which bookings saving these hours and closed dates would
 * cancel, with their donors' names, so staff confirm before donors are told (a staff walkthrough
 * saved a closed date over two bookings and learnt of them only afterwards). Reads only; the save
 * itself decides again under the site's lock (update-site.ts), so its count is the one that holds.
 */
export async function listAffectedBookings(ctx: AppContext, siteId: number, change: SiteCalendarChange & { closed_dates: string[] }): Promise<AffectedBookings> {
  const row = await findSiteRow(ctx.db, siteId);
  if (!row) throw siteNotFound();
  const calendar = { ...toSite(row), hours: change.hours, closed_dates: change.closed_dates };
  const bookings = await listPendingBookingsFrom(ctx.db, siteId, ctx.clock.today(), calendar);
  return {
    bookings: bookingsAtClosedTimes(calendar, bookings).map((booking) => ({
      id: booking.id,
      date: booking.donation_date,
      slot: booking.slot,
      donor_name: fullNameOf(booking),
    })),
  };
}
