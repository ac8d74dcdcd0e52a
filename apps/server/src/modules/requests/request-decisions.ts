import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { COMPONENT_WORDS, type Component } from '@bloodbank/shared/components';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../errors';
import { findRequestForAdmin } from './request-decisions.repository';

/** What approving and rejecting a request share (approve-request.ts, reject-request.ts). */
export const REQUEST_DECISION_MESSAGES = {
  requestNotFound: 'Request not found',
  requestDecided: 'This request has already been decided.',
  requestCancelled: 'This request was cancelled by the patient.',
  incompatibleGroup: (given: BloodGroup, needed: BloodGroup, component: Component = 'red_cells') =>
    component === 'red_cells' || component === 'whole_blood'
      ? `${given} blood cannot be given to a patient who needs ${needed}.`
      : `${given} ${COMPONENT_WORDS[component]} cannot be given to a patient who needs ${needed}.`,
} as const;

/**
 * The request, if it can still be decided: 404 when unknown, 409 once decided or cancelled (PRODUCT.md
 * 3.5). This read only picks the answer; the conditional update in the transaction decides races.
 */
export async function findPendingRequest(ctx: AppContext, requestId: number) {
  const request = await findRequestForAdmin(ctx.db, requestId);
  if (!request) throw notFound(REQUEST_DECISION_MESSAGES.requestNotFound);
  if (request.status === 'cancelled') throw conflict(REQUEST_DECISION_MESSAGES.requestCancelled, 'already_decided');
  if (request.status !== 'pending') throw conflict(REQUEST_DECISION_MESSAGES.requestDecided, 'already_decided');
  return request;
}
