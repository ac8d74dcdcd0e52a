import type { ProcessUnitInput, ProcessUnitResult } from '@bloodbank/shared/admin';
import { SEPARATED_COMPONENTS } from '@bloodbank/shared/components';
import { MESSAGES } from '@bloodbank/shared/constants';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { DISCARDABLE_UNIT_STATUSES, findUnitsByIds, insertUnits, markUnitProcessed } from './inventory.repository';
import { toBloodUnit } from './inventory.service';
import { withDonorLocked } from './lock-unit-donor';
import { expiryDateOf } from './receive-units';

export const PROCESS_MESSAGES = {
  unitNotFound: 'Unit not found',
  notWholeBlood: 'Only a whole-blood unit can be separated into components.',
  alreadyProcessed: 'This unit has already been separated into components.',
  notInStore: (status: string) => `This unit is ${status} and can no longer be separated.`,
  expired: 'This unit has expired and can no longer be separated.',
  plateletsSameDay: MESSAGES.plateletsSameDay,
} as const;

/**
 * POST /admin/units/:id/process (PRODUCT.md 3.3): a whole-blood unit, quarantined or available and
 * not expired, becomes `processed` and yields one unit of each chosen component, platelets only on
 * the day of collection. The children inherit the group, the donation, the collection day and the
 * status (a quarantined parent's children stay quarantined, with its hold, until its test results
 * or a release), each with its own shelf life. The conditional update makes it happen at most once.
 */
export async function processUnit(
  ctx: AppContext,
  admin: Principal,
  unitId: number,
  input: ProcessUnitInput,
): Promise<ProcessUnitResult> {
  const today = ctx.clock.today();
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const [seen] = await findUnitsByIds(trx, [unitId]);
    // Its status as test results and lookback holds left it: the children inherit it.
    const unit = seen && (await withDonorLocked(ctx, trx, seen));
    if (!unit) throw notFound(PROCESS_MESSAGES.unitNotFound);
    if (unit.component !== 'whole_blood') throw conflict(PROCESS_MESSAGES.notWholeBlood, 'not_whole_blood');
    if (unit.status === 'processed') throw conflict(PROCESS_MESSAGES.alreadyProcessed, 'already_processed');
    if (!(DISCARDABLE_UNIT_STATUSES as readonly string[]).includes(unit.status)) {
      throw conflict(PROCESS_MESSAGES.notInStore(unit.status), 'not_in_store');
    }
    if (unit.expires_on < today) throw conflict(PROCESS_MESSAGES.expired, 'expired');
    if (input.components.includes('platelets') && unit.collected_on !== today) {
      throw conflict(PROCESS_MESSAGES.plateletsSameDay, 'platelets_too_late');
    }

    // Decides races: of two staff processing one unit at once, one gets here.
    const parent = await markUnitProcessed(trx, unitId, today);
    if (!parent) throw conflict(PROCESS_MESSAGES.alreadyProcessed, 'already_processed');

    const children = [];
    for (const component of SEPARATED_COMPONENTS.filter((candidate) => input.components.includes(candidate))) {
      const [child] = await insertUnits(trx, {
        bloodgroup: unit.bloodgroup,
        component,
        parentUnitId: unit.id,
        source: unit.source,
        donationId: unit.donation_id,
        collectedOn: unit.collected_on,
        expiresOn: expiryDateOf(unit.collected_on, ctx.config.shelfLifeDays[component]),
        count: 1,
        at,
        holdReason: unit.status === 'quarantined' ? unit.hold_reason : null,
      });
      if (child) children.push(child);
    }
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'unit.processed',
      entity: 'blood_unit',
      entityId: unit.id,
      before: { status: unit.status, component: unit.component },
      after: {
        status: 'processed',
        components: children.map((child) => ({ id: child.id, component: child.component, expires_on: child.expires_on })),
      },
      at,
    });
    return { units: children.map((child) => toBloodUnit(child, today)) };
  });
}
