import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { Component } from '@bloodbank/shared/components';
import type { ReceiveUnitsResult } from '@bloodbank/shared/admin';
import { addDays } from '@bloodbank/shared/dates';
import type { AppContext } from '../../context';
import { invalidFields } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { insertUnits } from './inventory.repository';
import { toBloodUnit } from './inventory.service';

export const RECEIVE_MESSAGES = {
  alreadyExpired: (expiresOn: string) => `Units collected on this date expired on ${expiresOn}; they cannot be received.`,
} as const;

/**
 * A unit's expiry date: its collection date plus its component's shelf life (*_SHELF_LIFE_DAYS).
 * Used for the units received here, collected (donations/collect-donation.ts) and separated
 * (process-unit.ts).
 */
export const expiryDateOf = (collectedOn: string, shelfLifeDays: number) => addDays(collectedOn, shelfLifeDays);

/**
 * POST /admin/units: an admin receives bags by hand (PRODUCT.md 3.3): one available unit of the
 * chosen component per bag, collected on the given date (not in the future: the body schema),
 * expiring after that component's shelf life.
 * Bags that have already expired are refused. The receipt is audited.
 */
export async function receiveUnits(
  ctx: AppContext,
  actor: Principal,
  input: { bloodgroup: BloodGroup; component: Component; count: number; collected_on: string },
): Promise<ReceiveUnitsResult> {
  const today = ctx.clock.today();
  const expiresOn = expiryDateOf(input.collected_on, ctx.config.shelfLifeDays[input.component]);
  if (expiresOn < today) throw invalidFields({ collected_on: RECEIVE_MESSAGES.alreadyExpired(expiresOn) });
  const at = ctx.clock.now().toISOString();
  const units = await ctx.writes.run(async (trx) => {
    const rows = await insertUnits(trx, {
      bloodgroup: input.bloodgroup,
      component: input.component,
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
        component: input.component,
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
