import type { BloodRequest } from '@bloodbank/shared/blood-request';
import type { AppContext } from '../../context';
import { conflict, forbidden, notFound } from '../../errors';
import { recordRequestActivity } from './request-activity';
import { cancelPendingRequest, findBloodRequest } from './requests.repository';
import { toBloodRequest } from './requests.service';

export const CANCEL_MESSAGES = {
  notFound: 'Request not found',
  notYours: 'You can only cancel your own requests',
  onlyPendingCancellable: 'Only a pending request can be cancelled.',
} as const;

/**
 * POST /requests/:id/cancel (PRODUCT.md 3.5): a patient cancels one of their own requests while it
 * is pending. Ownership is checked here, not by the route (403 for another patient's request).
 */
export async function cancelOwnRequest(
  ctx: AppContext,
  patientId: number,
  requestId: number,
): Promise<BloodRequest> {
  const existing = await findBloodRequest(ctx.db, requestId);
  if (!existing) throw notFound(CANCEL_MESSAGES.notFound);
  if (existing.patient_id !== patientId) throw forbidden(CANCEL_MESSAGES.notYours);
  if (existing.status !== 'pending')
    throw conflict(CANCEL_MESSAGES.onlyPendingCancellable, 'request_not_pending');

  const at = ctx.clock.now().toISOString();
  const cancelled = await ctx.writes.run(async (trx) => {
    // The read above only picks the error; this conditional update is what decides the race.
    const row = await cancelPendingRequest(trx, requestId, patientId, at);
    if (!row) throw conflict(CANCEL_MESSAGES.onlyPendingCancellable, 'request_not_pending');
    await recordRequestActivity(trx, row, { type: 'cancelled' }, at);
    return row;
  });
  return toBloodRequest(cancelled, []);
}
