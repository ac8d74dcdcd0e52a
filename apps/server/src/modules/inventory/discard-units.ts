import type { Transaction } from 'kysely';
import { notEnoughToDiscard, type DiscardUnits } from '@bloodbank/shared/admin';
import { unitComponentsFor } from '@bloodbank/shared/components';
import type { AppContext } from '../../context';
import type { DB } from '../../db/types';
import { conflict, notFound } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { calloutWhereStockIsLow } from '../callouts/send-callout';
import {
  countStockByGroup,
  findUnitsByIds,
  anyExpiredUnitOnShelf,
  lockExpiredUnits,
  lockStockTaking,
  lockUsableUnitsFefo,
  markUnitsDiscarded,
  redCellGroupsOf,
  DISCARDABLE_UNIT_STATUSES,
} from './inventory.repository';
import { UNITS_EXPIRED_KIND } from '../notifications/messages';
import { markStaffNoticesRead } from '../notifications/notifications.repository';

export const DISCARD_MESSAGES = {
  unitNotFound: (unitId: number) => `Blood unit ${unitId} not found`,
  notDiscardable: (unitIds: number[]) =>
    `${unitIds.length === 1 ? 'Unit' : 'Units'} ${unitIds.join(', ')} cannot be discarded: only units in stock or in testing can.`,
  notEnoughToDiscard,
  expiredReason: 'Expired',
} as const;

/**
 * No expired unit left on the shelf, however they went (all at once, or bag by bag): staff's
 * notices that some wait to be discarded are done.
 */
async function closeExpiredNoticesIfNoneLeft(trx: Transaction<DB>, today: string, at: string): Promise<void> {
  if (!(await anyExpiredUnitOnShelf(trx, today))) await markStaffNoticesRead(trx, UNITS_EXPIRED_KIND, at);
}

/** Thrown inside a transaction to roll it back; answered once the transaction is over. */
class DiscardRefused extends Error {}

/**
 * POST /admin/units/discard (PRODUCT.md 3.3). Three ways to discard: chosen units, a count of a
 * group's usable units (first-expiring-first, e.g. a broken fridge), or every available unit past
 * its expiry date. Only available units can be discarded. All or nothing, and audited.
 */
export async function discardUnits(
  ctx: AppContext,
  actor: Principal,
  input: DiscardUnits,
): Promise<{ discarded_unit_ids: number[] }> {
  const today = ctx.clock.today();
  const at = ctx.clock.now().toISOString();
  const mode = 'unit_ids' in input ? 'selected' : 'bloodgroup' in input ? 'counted' : 'expired';
  const reason = 'expired' in input ? DISCARD_MESSAGES.expiredReason : input.reason?.trim() || null;

  try {
    const discarded = await ctx.writes.run(async (trx) => {
      let unitIds: number[];
      if ('unit_ids' in input) unitIds = [...new Set(input.unit_ids)].sort((a, b) => a - b);
      else if ('bloodgroup' in input) {
        await lockStockTaking(trx, ctx.engine);
        unitIds = await lockUsableUnitsFefo(trx, ctx.engine, {
          bloodgroup: input.bloodgroup,
          components: unitComponentsFor(input.component),
          today,
          count: input.count,
        });
        if (unitIds.length < input.count) throw new DiscardRefused();
      } else unitIds = await lockExpiredUnits(trx, ctx.engine, today);
      if (unitIds.length === 0) {
        await closeExpiredNoticesIfNoneLeft(trx, today, at);
        return [];
      }

      const changed = await markUnitsDiscarded(trx, unitIds, { reason, at });
      if (changed !== unitIds.length) throw new DiscardRefused();
      await recordAudit(trx, {
        actorId: actor.id,
        actor: actor.username,
        action: 'units.discarded',
        entity: 'blood_unit',
        entityId: null,
        before: { status: mode === 'selected' ? 'available or quarantined' : 'available' },
        after: {
          status: 'discarded',
          mode,
          reason,
          ...('bloodgroup' in input ? { bloodgroup: input.bloodgroup, component: input.component } : {}),
          unit_ids: unitIds,
        },
        at,
      });
      // Red cells or whole blood taken off the shelf may leave a group short: its donors are called
      // (PRODUCT.md 3.8). Expired units were not stock any more.
      if (mode !== 'expired') await calloutWhereStockIsLow(ctx, trx, await redCellGroupsOf(trx, unitIds), at);
      await closeExpiredNoticesIfNoneLeft(trx, today, at);
      return unitIds;
    });
    return { discarded_unit_ids: discarded };
  } catch (error) {
    if (!(error instanceof DiscardRefused)) throw error;
    // Refused: say why, read after the rollback (never with ctx.db inside the write).
    if ('unit_ids' in input) {
      const found = await findUnitsByIds(ctx.db, input.unit_ids);
      const foundIds = new Set(found.map((unit) => unit.id));
      const missing = input.unit_ids.find((id) => !foundIds.has(id));
      if (missing !== undefined) throw notFound(DISCARD_MESSAGES.unitNotFound(missing));
      const notAvailable = found
        .filter((unit) => !(DISCARDABLE_UNIT_STATUSES as readonly string[]).includes(unit.status))
        .map((unit) => unit.id);
      // Empty only if the units changed again since the refused attempt: name them all then.
      const unavailable = notAvailable.length > 0 ? notAvailable : [...new Set(input.unit_ids)];
      throw conflict(DISCARD_MESSAGES.notDiscardable(unavailable), 'units_not_available', { unit_ids: unavailable });
    }
    if ('bloodgroup' in input) {
      const available = (await countStockByGroup(ctx.db, today, input.component))[input.bloodgroup];
      throw conflict(DISCARD_MESSAGES.notEnoughToDiscard(available, input.bloodgroup, input.component), 'insufficient_stock', {
        available,
      });
    }
    throw error;
  }
}
