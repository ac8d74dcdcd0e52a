import type { BloodUnit } from '@bloodbank/shared/admin';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { findDonationOwnerAndStatus } from '../donations/donations.repository';
import { findUnitsByIds, releaseLookbackHold } from './inventory.repository';
import { toBloodUnit } from './inventory.service';
import { withDonorLocked } from './lock-unit-donor';

export const RELEASE_MESSAGES = {
  unitNotFound: 'Unit not found',
  notHeld: 'Only a unit on a lookback hold can be released.',
} as const;

/**
 * POST /admin/units/:id/release (PRODUCT.md 3.2): staff release a unit a lookback put on hold. It
 * goes back to stock, or back to testing when its own donation has no results yet: a release never
 * makes an untested unit available. The conditional update decides races (one 200, one 409).
 */
export async function releaseHeldUnit(ctx: AppContext, admin: Principal, unitId: number): Promise<BloodUnit> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const [seen] = await findUnitsByIds(trx, [unitId]);
    // The donation's status as test results left it: a hold released into a testing that has just ended would never leave it.
    const unit = seen && (await withDonorLocked(ctx, trx, seen));
    if (!unit) throw notFound(RELEASE_MESSAGES.unitNotFound);
    const donation = unit.donation_id ? await findDonationOwnerAndStatus(trx, unit.donation_id) : undefined;
    const backTo = donation?.status === 'collected' ? 'testing' : 'available';
    const released = await releaseLookbackHold(trx, unitId, backTo);
    if (!released) throw conflict(RELEASE_MESSAGES.notHeld, 'not_held');
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'unit.released',
      entity: 'blood_unit',
      entityId: unitId,
      before: { status: 'quarantined', hold_reason: 'lookback' },
      after: { status: released.status, hold_reason: released.hold_reason },
      at,
    });
    return toBloodUnit(released, ctx.clock.today());
  });
}
