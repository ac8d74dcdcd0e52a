import type { Transaction } from 'kysely';
import { SITE_MESSAGES } from '@bloodbank/shared/sites';
import type { AppContext } from '../../context';
import type { DB } from '../../db/types';
import { conflict, invalidFields } from '../../errors';
import { isSlotOn, localTimeExists, slotEnd, slotIsAhead } from './opening-hours';
import { anyActiveSite, countPlacesTaken, lockSiteRow } from './sites.repository';
import { toSite, type SiteRow } from './sites.service';

export interface SlotChoice {
  siteId: number | null | undefined;
  slot: string | null | undefined;
  date: string;
}

/** Where a booking will be: a site and slot, or nowhere in particular (no sites configured). */
export type HeldPlace = { site: SiteRow; slot: string } | null;

export const slotFull = () => conflict(SITE_MESSAGES.slotFull, 'slot_full', { errors: { slot: SITE_MESSAGES.slotFull } });

/**
 * Holds a place in a slot for a booking (PRODUCT.md 3.6), inside the booking's write: with any
 * active site, the booking must name an active site and one of its slots on that date that has not
 * begun and has a free place; with none, a booking by date alone (site and slot are ignored).
 *
 * Atomic: the site row is locked on PostgreSQL (SQLite writes take turns), so twenty parallel
 * bookings of a slot with capacity 2 give exactly 2 successes, on any number of instances. The
 * place is taken by the caller inserting (or moving) the donation before the transaction ends.
 * `movingDonationId`: the booking being moved, whose own place does not count against it.
 */
export async function holdSlot(
  ctx: AppContext,
  trx: Transaction<DB>,
  choice: SlotChoice,
  movingDonationId?: number,
): Promise<HeldPlace> {
  if (choice.siteId == null && choice.slot == null && !(await anyActiveSite(trx))) return null;
  const missing: Record<string, string> = {};
  if (choice.siteId == null) missing.site_id = SITE_MESSAGES.siteRequired;
  if (choice.slot == null) missing.slot = SITE_MESSAGES.slotRequired;
  if (choice.siteId == null || choice.slot == null) throw invalidFields(missing);

  const site = await lockSiteRow(trx, choice.siteId, ctx.engine);
  if (!site || site.active !== 1) throw invalidFields({ site_id: SITE_MESSAGES.siteUnavailable });
  const now = { today: ctx.clock.today(), time: ctx.clock.time() };
  if (
    !isSlotOn(toSite(site), choice.date, choice.slot) ||
    !slotIsAhead(choice.date, choice.slot, now) ||
    !localTimeExists(choice.date, choice.slot, ctx.config.timezone)
  ) {
    throw invalidFields({ slot: SITE_MESSAGES.slotClosed });
  }
  const taken = await countPlacesTaken(
    trx,
    { siteId: site.id, date: choice.date, time: choice.slot, ends: slotEnd(choice.slot, site.slot_minutes) },
    movingDonationId,
  );
  if (taken >= site.capacity) throw slotFull();
  return { site, slot: choice.slot };
}
