import type { Transaction } from 'kysely';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { RequestStatus } from '@bloodbank/shared/blood-request';
import type { DatabaseOrTransaction } from '../../db/database';
import type { BloodRequestRow, DB } from '../../db/types';
import { pendingFirstPage, type Decision, type DecisionListQuery, type StatusFilter } from '../../decisions';
import { PERSON_NAME_COLUMNS } from '../users/users.repository';

/** The admin's side of blood requests: the decision, and the lists with the patient's name. */

/**
 * pending -> approved/rejected in one conditional statement; undefined when the request was no
 * longer pending (another admin decided it first, or the patient cancelled it: requests.repository.ts
 * cancelPendingRequest races the same way). On PostgreSQL the row stays locked until the
 * transaction ends, so a concurrent decision waits and then finds it decided.
 */
export function decidePendingRequest(
  trx: Transaction<DB>,
  requestId: number,
  status: 'approved' | 'rejected',
  decision: Decision & { issuedBloodgroup: BloodGroup | null },
): Promise<BloodRequestRow | undefined> {
  return trx
    .updateTable('blood_requests')
    .set({
      status,
      rejection_reason: decision.rejectionReason,
      issued_bloodgroup: decision.issuedBloodgroup,
      decided_by: decision.decidedBy,
      decided_at: decision.at,
    })
    .where('id', '=', requestId)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

function filteredRequests(db: DatabaseOrTransaction, status: StatusFilter<RequestStatus>, personId: number | undefined) {
  let requests = db.selectFrom('blood_requests');
  if (typeof status === 'string') requests = requests.where('blood_requests.status', '=', status);
  else if (status) requests = requests.where('blood_requests.status', '!=', status.not);
  if (personId) requests = requests.where('blood_requests.patient_id', '=', personId);
  return requests;
}

export async function listRequestsForAdmin(db: DatabaseOrTransaction, query: DecisionListQuery<RequestStatus>) {
  const count = (status: StatusFilter<RequestStatus>) =>
    filteredRequests(db, status, query.personId)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  const read = (status: StatusFilter<RequestStatus>, limit: number, offset: number) => {
    let page = filteredRequests(db, status, query.personId)
      .innerJoin('users', 'users.id', 'blood_requests.patient_id')
      .selectAll('blood_requests')
      .select(PERSON_NAME_COLUMNS);
    // The requests waiting for a decision as staff work them: the one needed soonest first, then in
    // the order they came (requests_status_needed_idx); on page 115 of the newest, a request needed
    // today was out of sight. Decided ones: the newest first.
    page =
      status === 'pending'
        ? page.orderBy('blood_requests.required_date').orderBy('blood_requests.id')
        : page.orderBy('blood_requests.created_at', 'desc').orderBy('blood_requests.id', 'desc');
    return page.limit(limit).offset(offset).execute();
  };
  if (query.status) {
    const [items, total] = await Promise.all([read(query.status, query.limit, query.offset), count(query.status)]);
    return { items, total };
  }
  const [pendingCount, total] = await Promise.all([count('pending'), count(undefined)]);
  return { items: await pendingFirstPage(pendingCount, query.limit, query.offset, read), total };
}

export function findRequestForAdmin(db: DatabaseOrTransaction, requestId: number) {
  return db
    .selectFrom('blood_requests')
    .innerJoin('users', 'users.id', 'blood_requests.patient_id')
    .selectAll('blood_requests')
    .select(PERSON_NAME_COLUMNS)
    .where('blood_requests.id', '=', requestId)
    .executeTakeFirst();
}

/** Requests with their patient, by id, `limit` after `afterId` (the CSV export reads them a chunk at a time). */
export function listRequestsWithPatientsAfter(db: DatabaseOrTransaction, afterId: number, limit: number) {
  return db
    .selectFrom('blood_requests')
    .innerJoin('users', 'users.id', 'blood_requests.patient_id')
    .selectAll('blood_requests')
    .select(PERSON_NAME_COLUMNS)
    .where('blood_requests.id', '>', afterId)
    .orderBy('blood_requests.id')
    .limit(limit)
    .execute();
}
