import type { AffectedBookings, SiteCalendarChange } from '@bloodbank/shared/sites';
import type { AppContext } from '../../context';
import { fullNameOf } from '../users/users.service';
import { findSiteRow, listBookingsClosedBy } from './sites.repository';
import { siteNotFound, toSite } from './sites.service';

/**
 * POST /admin/sites/:id/affected-bookings: which bookings saving these hours and closed dates would
 * cancel, with their donors' names, so staff confirm before donors are told (a staff walkthrough
 * saved a closed date over two bookings and learnt of them only afterwards). Reads only; the save
 * itself decides again under the site's lock (update-site.ts), so its count is the one that holds.
 */
export async function listAffectedBookings(ctx: AppContext, siteId: number, change: SiteCalendarChange): Promise<AffectedBookings> {
  const row = await findSiteRow(ctx.db, siteId);
  if (!row) throw siteNotFound();
  const calendar = { ...toSite(row), hours: change.hours, closed_dates: change.closed_dates };
  const bookings = await listBookingsClosedBy(ctx.db, siteId, ctx.clock.today(), calendar);
  return {
    bookings: bookings.map((booking) => ({
      id: booking.id,
      date: booking.donation_date,
      slot: booking.slot,
      donor_name: fullNameOf(booking),
    })),
  };
}
