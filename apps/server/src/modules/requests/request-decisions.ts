import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { COMPONENT_WORDS, type Component } from '@bloodbank/shared/components';
import type { RequestStatus } from '@bloodbank/shared/blood-request';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import { alreadyDecidedDetail } from '../../decisions';
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

/** What another admin decided, in staff's words: the 409 says it, so the outcome is no mystery. */
const DECIDED_OUTCOMES: Record<Exclude<RequestStatus, 'pending' | 'cancelled'>, string> = {
  approved: 'it was approved and its units issued',
  rejected: 'it was rejected',
};

/** The 409 for a request that is no longer pending, saying what became of it. */
function alreadyDecided(status: RequestStatus) {
  if (status === 'cancelled') return conflict(REQUEST_DECISION_MESSAGES.requestCancelled, 'already_decided');
  return conflict(alreadyDecidedDetail(REQUEST_DECISION_MESSAGES.requestDecided, status === 'pending' ? null : DECIDED_OUTCOMES[status]), 'already_decided');
}

/**
 * The request, if it can still be decided: 404 when unknown, 409 once decided or cancelled (PRODUCT.md
 * 3.5). This read only picks the answer; the conditional update in the transaction decides races.
 */
export async function findPendingRequest(ctx: AppContext, requestId: number) {
  const request = await findRequestForAdmin(ctx.db, requestId);
  if (!request) throw notFound(REQUEST_DECISION_MESSAGES.requestNotFound);
  if (request.status !== 'pending') throw alreadyDecided(request.status);
  return request;
}

/** The 409 when the conditional update lost a race: read again in the same transaction, what became of the request. */
export async function decidedMeanwhile(trx: DatabaseOrTransaction, requestId: number) {
  const request = await findRequestForAdmin(trx, requestId);
  return alreadyDecided(request?.status ?? 'pending');
}
