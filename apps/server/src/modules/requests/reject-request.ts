import type { AdminRequest } from '@bloodbank/shared/admin';
import type { AppContext } from '../../context';
import { reasonOf } from '../../decisions';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { messages } from '../notifications/messages';
import { notify } from '../notifications/notify';
import { recordRequestActivity, requestActivityMessage } from './request-activity';
import { decidedMeanwhile, findPendingRequest } from './request-decisions';
import { decidePendingRequest } from './request-decisions.repository';
import { toAdminRequest } from './requests.service';

/**
 * POST /admin/requests/:id/reject (PRODUCT.md 3.5): a pending request is rejected with an optional
 * reason, which the patient's feed shows. Nothing is issued. Audited.
 */
export async function rejectRequest(
  ctx: AppContext,
  admin: Principal,
  requestId: number,
  input: { reason?: string | undefined },
): Promise<AdminRequest> {
  const request = await findPendingRequest(ctx, requestId);
  const reason = reasonOf(input.reason);
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    // The conditional update decides a race with another admin or with the patient's cancel.
    const decided = await decidePendingRequest(trx, requestId, 'rejected', {
      decidedBy: admin.id,
      at,
      rejectionReason: reason,
      issuedBloodgroup: null,
    });
    if (!decided) throw await decidedMeanwhile(trx, requestId);
    await recordRequestActivity(trx, decided, { type: 'rejected', reason }, at);
    await notify(ctx, trx, decided.patient_id, messages.requestRejected(requestActivityMessage(decided, { type: 'rejected', reason })), at);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'request.rejected',
      entity: 'request',
      entityId: requestId,
      before: { status: request.status },
      after: { status: decided.status, reason },
      at,
    });
    return toAdminRequest({ ...request, ...decided }, []);
  });
}
