import type { AdminDonation } from '@bloodbank/shared/admin';
import type { AppContext } from '../../context';
import { conflict } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { insertUnits } from '../inventory/inventory.repository';
import { expiryDateOf } from '../inventory/receive-units';
import { recordDonationApproved } from './donation-activity';
import { DONATION_DECISION_MESSAGES, findPendingDonation } from './donation-decisions';
import { decidePendingDonation } from './donations.repository';
import { toAdminDonation } from './donations.service';

/**
 * POST /admin/donations/:id/approve. The donation's units enter inventory, one row per bag,
 * collected on the donation date and expiring after the shelf life. The conditional update decides
 * races: a second approval (or a rejection) finds it no longer pending.
 */
export async function approveDonation(ctx: AppContext, admin: Principal, donationId: number): Promise<AdminDonation> {
  const donation = await findPendingDonation(ctx, donationId);
  // Blood booked for a later day has not been given yet, so it cannot become stock today.
  if (donation.donation_date > ctx.clock.today()) {
    throw conflict(DONATION_DECISION_MESSAGES.donationNotYetDue(donation.donation_date), 'not_yet_due');
  }
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const decided = await decidePendingDonation(trx, donationId, 'approved', {
      decidedBy: admin.id,
      at,
      rejectionReason: null,
    });
    if (!decided) throw conflict(DONATION_DECISION_MESSAGES.donationDecided, 'already_decided');
    const units = await insertUnits(trx, {
      bloodgroup: decided.bloodgroup,
      source: 'donation',
      donationId: decided.id,
      collectedOn: decided.donation_date,
      expiresOn: expiryDateOf(decided.donation_date, ctx.config.unitShelfLifeDays),
      count: decided.units,
      at,
    });
    const unitIds = units.map((unit) => unit.id);
    await recordDonationApproved(trx, decided.donor_id, { date: decided.donation_date, units: decided.units }, at);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'donation.approved',
      entity: 'donation',
      entityId: decided.id,
      before: { status: donation.status },
      after: { status: decided.status, unit_ids: unitIds, expires_on: units[0]?.expires_on ?? null },
      at,
    });
    return toAdminDonation({ ...donation, ...decided }, unitIds);
  });
}
