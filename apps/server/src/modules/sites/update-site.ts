import { calendarsDiffer, daysShorterThanASlot, shorterThanASlotMessage, type SitePatch, type SiteUpdate } from '@bloodbank/shared/sites';
import { invalidFields } from '../../errors';
import type { AppContext } from '../../context';
import type { SitesTable } from '../../db/types';
import type { Updateable } from 'kysely';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { cancelBookingsAtClosedTimes } from './cancel-closed-bookings';
import { refuseTakenSiteName, siteNameKey } from './site-names';
import { lockSiteRow, updateSiteRow } from './sites.repository';
import { siteNotFound, toSite } from './sites.service';

const capitalised = (day: string) => day.charAt(0).toUpperCase() + day.slice(1);

/**
 * PATCH /admin/sites/:id: edit a site, or deactivate it (`{active:false}`: no new bookings there;
 * the bookings it has stay, and staff still see its day lists). A new name must be one no other
 * site has (409, site-names.ts). Audited with before and after.
 * New hours or a closed date cancel the bookings at the times the site no longer keeps, and tell
 * their donors (cancel-closed-bookings.ts); the answer says how many.
 */
export async function updateSite(
  ctx: AppContext,
  admin: Principal,
  siteId: number,
  patch: SitePatch,
): Promise<SiteUpdate> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const before = await lockSiteRow(trx, siteId, ctx.engine);
    if (!before) throw siteNotFound();
    const change: Updateable<SitesTable> = { updated_at: at };
    if (patch.name !== undefined) change.name = patch.name;
    if (patch.address !== undefined) change.address = patch.address;
    if (patch.hours !== undefined) change.hours = JSON.stringify(patch.hours);
    if (patch.slot_minutes !== undefined) change.slot_minutes = patch.slot_minutes;
    if (patch.capacity !== undefined) change.capacity = patch.capacity;
    if (patch.closed_dates !== undefined) change.closed_dates = JSON.stringify(patch.closed_dates);
    if (patch.active !== undefined) change.active = patch.active ? 1 : 0;
    const previous = toSite(before);
    // Hours or a slot length that leave a day without a single slot: said where the change was made.
    // Checked only when one of them is sent, so a site saved before this rule can still be renamed
    // or deactivated.
    const slotMinutes = patch.slot_minutes ?? previous.slot_minutes;
    const calendarSent = patch.hours !== undefined || patch.slot_minutes !== undefined;
    const tooShort = calendarSent ? daysShorterThanASlot(patch.hours ?? previous.hours, slotMinutes) : [];
    if (tooShort.length > 0) {
      const message = shorterThanASlotMessage(slotMinutes);
      throw invalidFields(
        patch.hours
          ? Object.fromEntries(tooShort.map((day) => [`hours.${day}.close`, message]))
          : { slot_minutes: `Longer than the opening hours on ${tooShort.map(capitalised).join(', ')}` },
      );
    }
    // Only a new name is checked: one that differs from the site's own in case or spaces alone is
    // still its own, and a site that shared its name with another before this rule can still be saved.
    if (patch.name !== undefined && siteNameKey(patch.name) !== siteNameKey(before.name)) {
      await refuseTakenSiteName(trx, ctx.engine, patch.name, siteId);
    }
    const row = await updateSiteRow(trx, siteId, change);
    if (!row) throw siteNotFound();
    const site = toSite(row);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: patch.active === false && before.active === 1 ? 'site.deactivated' : 'site.updated',
      entity: 'site',
      entityId: siteId,
      before: previous,
      after: site,
      at,
    });
    // Only a calendar that changes (the form sends hours and closed dates with every save): a rename
    // leaves every booking alone, even one at a time an earlier edit closed (before decision 0017).
    const cancelled = calendarsDiffer(previous, site) ? await cancelBookingsAtClosedTimes(ctx, trx, admin, site, at) : 0;
    return { ...site, cancelled_bookings: cancelled };
  });
}
