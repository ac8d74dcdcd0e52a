import type { Transaction } from 'kysely';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type {
  BloodUnit,
  DiscardUnits,
  Paged,
  ReceiveUnitsResult,
  UnitsQuery,
} from '@bloodbank/shared/admin';
import { addDays } from '@bloodbank/shared/dates';
import type { AppContext } from '../../context';
import type { Engine } from '../../db/database';
import type { BloodUnitRow, DB } from '../../db/types';
import { conflict, invalidFields, notFound } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import {
  countStockByGroup,
  findUnitsByIds,
  insertUnits,
  listUnits,
  lockExpiredUnits,
  lockGroupStock,
  lockUsableUnitsFefo,
  markUnitsDiscarded,
  markUnitsIssued,
} from './inventory.repository';

export const INVENTORY_MESSAGES = {
  alreadyExpired: (expiresOn: string) => `Units collected on this date expired on ${expiresOn}; they cannot be received.`,
  unitNotFound: (unitId: number) => `Blood unit ${unitId} not found`,
  notDiscardable: (unitIds: number[]) =>
    `${unitIds.length === 1 ? 'Unit' : 'Units'} ${unitIds.join(', ')} cannot be discarded: only available units can.`,
  notEnoughToDiscard: (available: number, bloodgroup: BloodGroup) =>
    `Only ${available} units of ${bloodgroup} available to discard.`,
  expiredReason: 'Expired',
} as const;

export const expiryDateOf = (collectedOn: string, shelfLifeDays: number) => addDays(collectedOn, shelfLifeDays);

export function toBloodUnit(row: BloodUnitRow, today: string): BloodUnit {
  return {
    id: row.id,
    bloodgroup: row.bloodgroup,
    source: row.source,
    donation_id: row.donation_id,
    collected_on: row.collected_on,
    expires_on: row.expires_on,
    status: row.status,
    expired: row.status === 'available' && row.expires_on < today,
    request_id: row.request_id,
    issued_at: row.issued_at,
    discarded_at: row.discarded_at,
    discard_reason: row.discard_reason,
    created_at: row.created_at,
  };
}

export async function listUnitsPage(ctx: AppContext, query: UnitsQuery): Promise<Paged<BloodUnit>> {
  const today = ctx.clock.today();
  const { items, total } = await listUnits(ctx.db, {
    bloodgroup: query.bloodgroup,
    filter: query.status,
    today,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return { items: items.map((row) => toBloodUnit(row, today)), total, page: query.page, pageSize: query.pageSize };
}

/**
 * Issues `count` usable units of a group to a request, first-expiring-first, inside the caller's
 * transaction. Returns the unit ids, or null when the group cannot cover the whole request (the
 * caller then rolls back). Safe under any concurrency, from any number of processes: issuing from
 * one group is serialized (lockGroupStock), candidates are row-locked (FOR UPDATE SKIP LOCKED on
 * PostgreSQL), and the final conditional update only touches units still available and unexpired,
 * anything short of `count` rows counting as a failure.
 */
export async function issueUnitsFefo(
  trx: Transaction<DB>,
  engine: Engine,
  issue: { bloodgroup: BloodGroup; count: number; requestId: number; today: string; at: string },
): Promise<number[] | null> {
  await lockGroupStock(trx, engine, issue.bloodgroup);
  const unitIds = await lockUsableUnitsFefo(trx, engine, issue);
  if (unitIds.length < issue.count) return null;
  const issued = await markUnitsIssued(trx, unitIds, issue);
  return issued === issue.count ? unitIds : null;
}

export async function receiveUnits(
  ctx: AppContext,
  actor: Principal,
  input: { bloodgroup: BloodGroup; count: number; collected_on: string },
): Promise<ReceiveUnitsResult> {
  const today = ctx.clock.today();
  const expiresOn = expiryDateOf(input.collected_on, ctx.config.unitShelfLifeDays);
  if (expiresOn < today) throw invalidFields({ collected_on: INVENTORY_MESSAGES.alreadyExpired(expiresOn) });
  const at = ctx.clock.now().toISOString();
  const units = await ctx.writes.run(async (trx) => {
    const rows = await insertUnits(trx, {
      bloodgroup: input.bloodgroup,
      source: 'manual',
      donationId: null,
      collectedOn: input.collected_on,
      expiresOn,
      count: input.count,
      at,
    });
    await recordAudit(trx, {
      actorId: actor.id,
      actor: actor.username,
      action: 'units.received',
      entity: 'blood_unit',
      entityId: null,
      after: {
        bloodgroup: input.bloodgroup,
        count: input.count,
        collected_on: input.collected_on,
        expires_on: expiresOn,
        unit_ids: rows.map((row) => row.id),
      },
      at,
    });
    return rows;
  });
  return { units: units.map((row) => toBloodUnit(row, today)) };
}

/** Thrown inside a transaction to roll it back; answered once the transaction is over. */
class DiscardRefused extends Error {}

/**
 * Three ways to discard: chosen units, a count of a group's usable units (first-expiring-first,
 * e.g. a broken fridge), or every available unit past its expiry date. All or nothing.
 */
export async function discardUnits(
  ctx: AppContext,
  actor: Principal,
  input: DiscardUnits,
): Promise<{ discarded_unit_ids: number[] }> {
  const today = ctx.clock.today();
  const at = ctx.clock.now().toISOString();
  const mode = 'unit_ids' in input ? 'selected' : 'bloodgroup' in input ? 'counted' : 'expired';
  const reason = 'expired' in input ? INVENTORY_MESSAGES.expiredReason : input.reason?.trim() || null;

  try {
    const discarded = await ctx.writes.run(async (trx) => {
      let unitIds: number[];
      if ('unit_ids' in input) unitIds = [...new Set(input.unit_ids)].sort((a, b) => a - b);
      else if ('bloodgroup' in input) {
        await lockGroupStock(trx, ctx.engine, input.bloodgroup);
        unitIds = await lockUsableUnitsFefo(trx, ctx.engine, { bloodgroup: input.bloodgroup, today, count: input.count });
        if (unitIds.length < input.count) throw new DiscardRefused();
      } else unitIds = await lockExpiredUnits(trx, ctx.engine, today);
      if (unitIds.length === 0) return [];

      const changed = await markUnitsDiscarded(trx, unitIds, { reason, at });
      if (changed !== unitIds.length) throw new DiscardRefused();
      await recordAudit(trx, {
        actorId: actor.id,
        actor: actor.username,
        action: 'units.discarded',
        entity: 'blood_unit',
        entityId: null,
        before: { status: 'available' },
        after: {
          status: 'discarded',
          mode,
          reason,
          ...('bloodgroup' in input ? { bloodgroup: input.bloodgroup } : {}),
          unit_ids: unitIds,
        },
        at,
      });
      return unitIds;
    });
    return { discarded_unit_ids: discarded };
  } catch (error) {
    if (!(error instanceof DiscardRefused)) throw error;
    if ('unit_ids' in input) {
      const found = await findUnitsByIds(ctx.db, input.unit_ids);
      const foundIds = new Set(found.map((unit) => unit.id));
      const missing = input.unit_ids.find((id) => !foundIds.has(id));
      if (missing !== undefined) throw notFound(INVENTORY_MESSAGES.unitNotFound(missing));
      const notAvailable = found.filter((unit) => unit.status !== 'available').map((unit) => unit.id);
      // Empty only if the units changed again since the refused attempt: name them all then.
      const unavailable = notAvailable.length > 0 ? notAvailable : [...new Set(input.unit_ids)];
      throw conflict(INVENTORY_MESSAGES.notDiscardable(unavailable), 'units_not_available', { unit_ids: unavailable });
    }
    if ('bloodgroup' in input) {
      const available = (await countStockByGroup(ctx.db, today))[input.bloodgroup];
      throw conflict(INVENTORY_MESSAGES.notEnoughToDiscard(available, input.bloodgroup), 'insufficient_stock', {
        available,
      });
    }
    throw error;
  }
}
