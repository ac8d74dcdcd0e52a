import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { canGiveComponent, compatibleDonorGroups, unitComponentsFor, type Component } from '@bloodbank/shared/components';
import type { AdminRequest } from '@bloodbank/shared/admin';
import { MESSAGES } from '@bloodbank/shared/constants';
import type { AppContext } from '../../context';
import { conflict, invalidFields } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { componentsInWords } from '@bloodbank/shared/components';
import { recordDonationIssued } from '../donations/donation-activity';
import { countStockByGroup, listDonationsIssuedToRequest } from '../inventory/inventory.repository';
import { issueUnitsFefo } from '../inventory/issue-units';
import { calloutWhereStockIsLow } from '../callouts/send-callout';
import { messages } from '../notifications/messages';
import { notify } from '../notifications/notify';
import { recordRequestActivity, requestActivityMessage } from './request-activity';
import { decidedMeanwhile, findPendingRequest, REQUEST_DECISION_MESSAGES } from './request-decisions';
import { decidePendingRequest } from './request-decisions.repository';
import { toAdminRequest } from './requests.service';

/** One entry per donation whose units went to this request, with the components they gave. */
function groupIssuedByDonation(rows: { id: number; donor_id: number; donation_date: string; collected_on: string | null; component: Component }[]) {
  const byDonation = new Map<number, { donorId: number; date: string; components: Component[] }>();
  for (const row of rows) {
    const entry = byDonation.get(row.id) ?? { donorId: row.donor_id, date: row.collected_on ?? row.donation_date, components: [] };
    if (!entry.components.includes(row.component)) entry.components.push(row.component);
    byDonation.set(row.id, entry);
  }
  return [...byDonation.values()];
}

/** Thrown inside the approval transaction to roll it back; answered with the 409 once it is over. */
class NotEnoughStock extends Error {}

/**
 * POST /admin/requests/:id/approve (PRODUCT.md 3.3, 3.5). Issues the request's units of its
 * component first-expiring-first (a red-cell request across red cells and whole blood) from its own
 * group, or from `bloodgroup` when the admin picks one compatible for that component. One transaction: the request leaves "pending" and exactly `units` units become issued to
 * it, or nothing changes at all.
 */
export async function approveRequest(
  ctx: AppContext,
  admin: Principal,
  requestId: number,
  input: { bloodgroup?: BloodGroup | undefined },
): Promise<AdminRequest> {
  const request = await findPendingRequest(ctx, requestId);
  // The admin may approve from one other group, if the patient can receive that component from it
  // (red cells: the spec's table; plasma the other way round; platelets any group).
  const issueFrom = input.bloodgroup ?? request.bloodgroup;
  if (!canGiveComponent(request.component, issueFrom, request.bloodgroup)) {
    throw invalidFields({
      bloodgroup: REQUEST_DECISION_MESSAGES.incompatibleGroup(issueFrom, request.bloodgroup, request.component),
    });
  }
  const today = ctx.clock.today();
  const at = ctx.clock.now().toISOString();

  try {
    return await ctx.writes.run(async (trx) => {
      // First, so that on PostgreSQL a second approval of this request waits here and then loses.
      const decided = await decidePendingRequest(trx, requestId, 'approved', {
        decidedBy: admin.id,
        at,
        rejectionReason: null,
        issuedBloodgroup: issueFrom,
      });
      if (!decided) throw await decidedMeanwhile(trx, requestId);

      // All the units or none: a short group rolls the whole approval back.
      const unitIds = await issueUnitsFefo(trx, ctx.engine, {
        bloodgroup: issueFrom,
        components: unitComponentsFor(request.component),
        count: decided.units,
        requestId,
        today,
        at,
      });
      if (!unitIds) throw new NotEnoughStock();

      await recordRequestActivity(trx, decided, { type: 'approved', issuedBloodgroup: issueFrom }, at);
      await notify(
        ctx,
        trx,
        decided.patient_id,
        messages.requestApproved(requestActivityMessage(decided, { type: 'approved', issuedBloodgroup: issueFrom })),
        at,
      );
      // The blood journey: every donor whose bag went to this patient hears where it went.
      for (const donation of groupIssuedByDonation(await listDonationsIssuedToRequest(trx, requestId))) {
        await recordDonationIssued(trx, donation.donorId, donation.date, donation.components, at);
        await notify(ctx, trx, donation.donorId, messages.unitIssued(donation.date, componentsInWords(donation.components)), at);
      }
      // Red cells issued may leave the group short (PRODUCT.md 3.8): the donors who can help are called.
      if (request.component === 'red_cells') await calloutWhereStockIsLow(ctx, trx, [issueFrom], at);
      await recordAudit(trx, {
        actorId: admin.id,
        actor: admin.username,
        action: 'request.approved',
        entity: 'request',
        entityId: requestId,
        before: { status: request.status },
        after: { status: decided.status, issued_bloodgroup: issueFrom, component: request.component, unit_ids: unitIds },
        at,
      });
      return toAdminRequest({ ...request, ...decided }, unitIds);
    });
  } catch (error) {
    if (!(error instanceof NotEnoughStock)) throw error;
    // Counted after the rollback, outside the write.
    throw await insufficientStock(ctx, request, issueFrom, today);
  }
}

/**
 * The 409 of PRODUCT.md 3.3: how many units the tried group has, and the other groups the patient
 * may receive from that can cover the WHOLE request on their own (the admin approves from one
 * group, so a group with fewer units would only lead to another refusal).
 */
async function insufficientStock(
  ctx: AppContext,
  request: { bloodgroup: BloodGroup; component: Component; units: number },
  tried: BloodGroup,
  today: string,
) {
  const stock = await countStockByGroup(ctx.db, today, request.component);
  const available = stock[tried];
  // In the component's order of preference (platelets: ABO-identical first).
  const compatible = compatibleDonorGroups(request.component, request.bloodgroup)
    .filter((group) => group !== tried && stock[group] >= request.units)
    .map((bloodgroup) => ({ bloodgroup, units: stock[bloodgroup] }));
  return conflict(MESSAGES.notEnoughStock(available), 'insufficient_stock', { available, compatible });
}
