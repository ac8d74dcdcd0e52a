import type { AdminDonation } from '@bloodbank/shared/admin';
import type { AppContext } from '../../context';
import { reasonOf } from '../../decisions';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { messagePlace, messages } from '../notifications/messages';
import { notify } from '../notifications/notify';
import { findSiteRow } from '../sites/sites.repository';
import { recordDonationRejected } from './donation-activity';
import { findDonationInState, movedMeanwhile } from './donation-decisions';
import { decidePendingDonation } from './donations.repository';
import { toAdminDonation } from './donations.service';

/**
 * POST /admin/donations/:id/reject, with an optional reason shown to the donor: staff turn a
 * booking down before collection, and the donor is told why. Nothing was credited or stocked for it
 * (PRODUCT.md 3.2, 3.4).
 */
export async function rejectDonation(
  ctx: AppContext,
  admin: Principal,
  donationId: number,
  input: { reason?: string | undefined },
): Promise<AdminDonation> {
  const donation = await findDonationInState(ctx, donationId, 'pending');
  const reason = reasonOf(input.reason);
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const decided = await decidePendingDonation(trx, donationId, 'rejected', {
      decidedBy: admin.id,
      at,
      rejectionReason: reason,
    });
    if (!decided) throw movedMeanwhile('pending');
    await recordDonationRejected(trx, decided.donor_id, { date: decided.donation_date, units: decided.units }, reason, at);
    // Told as a closed site's booking is: the donor may be planning the trip (PRODUCT.md 3.2: the reason is shown to them).
    const site = decided.site_id === null ? undefined : await findSiteRow(trx, decided.site_id);
    const place = site && decided.slot ? { site, slot: decided.slot } : null;
    await notify(ctx, trx, decided.donor_id, messages.bookingRejected(decided.donation_date, messagePlace(place), reason), at);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'donation.rejected',
      entity: 'donation',
      entityId: decided.id,
      before: { status: donation.status },
      after: { status: decided.status, reason },
      at,
    });
    return toAdminDonation({ ...donation, ...decided }, [], undefined);
  });
}
