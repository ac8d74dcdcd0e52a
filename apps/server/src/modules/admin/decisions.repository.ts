import { sql, type Transaction } from 'kysely';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { DonationStatus } from '@bloodbank/shared/donation';
import type { RequestStatus } from '@bloodbank/shared/blood-request';
import type { DatabaseOrTransaction } from '../../db/database';
import type { BloodRequestRow, DB, DonationRow } from '../../db/types';

/** Decided by an admin: who and when, plus the reason when rejected. */
export interface Decision {
  decidedBy: number;
  at: string;
  rejectionReason: string | null;
}

export function findDonation(db: DatabaseOrTransaction, donationId: number): Promise<DonationRow | undefined> {
  return db.selectFrom('donations').selectAll().where('id', '=', donationId).executeTakeFirst();
}

export function findBloodRequestRow(db: DatabaseOrTransaction, requestId: number): Promise<BloodRequestRow | undefined> {
  return db.selectFrom('blood_requests').selectAll().where('id', '=', requestId).executeTakeFirst();
}

/**
 * pending -> approved/rejected in one conditional statement; undefined when the donation was no
 * longer pending (another admin decided it first). On PostgreSQL the row stays locked until the
 * transaction ends, so a concurrent decision waits and then finds it decided.
 */
export function decidePendingDonation(
  trx: Transaction<DB>,
  donationId: number,
  status: Exclude<DonationStatus, 'pending'>,
  decision: Decision,
): Promise<DonationRow | undefined> {
  return trx
    .updateTable('donations')
    .set({
      status,
      rejection_reason: decision.rejectionReason,
      decided_by: decision.decidedBy,
      decided_at: decision.at,
    })
    .where('id', '=', donationId)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** The request counterpart of decidePendingDonation (a patient's cancel races the same way). */
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

export interface DecisionListQuery<Status extends string> {
  status?: Status | undefined;
  /** Only the donations of this donor / the requests of this patient. */
  personId?: number | undefined;
  limit: number;
  offset: number;
}

/** Pending first (they wait for a decision), then newest first. */
const pendingFirst = sql<number>`case when status = 'pending' then 0 else 1 end`;

const personColumns = ['users.username', 'users.first_name', 'users.last_name'] as const;

function filteredDonations(db: DatabaseOrTransaction, query: Omit<DecisionListQuery<DonationStatus>, 'limit' | 'offset'>) {
  let donations = db.selectFrom('donations');
  if (query.status) donations = donations.where('donations.status', '=', query.status);
  if (query.personId) donations = donations.where('donations.donor_id', '=', query.personId);
  return donations;
}

export async function listDonationsForAdmin(db: DatabaseOrTransaction, query: DecisionListQuery<DonationStatus>) {
  const [items, total] = await Promise.all([
    filteredDonations(db, query)
      .innerJoin('users', 'users.id', 'donations.donor_id')
      .selectAll('donations')
      .select(personColumns)
      .orderBy(pendingFirst)
      .orderBy('donations.created_at', 'desc')
      .orderBy('donations.id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    filteredDonations(db, query)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count)),
  ]);
  return { items, total };
}

function filteredRequests(db: DatabaseOrTransaction, query: Omit<DecisionListQuery<RequestStatus>, 'limit' | 'offset'>) {
  let requests = db.selectFrom('blood_requests');
  if (query.status) requests = requests.where('blood_requests.status', '=', query.status);
  if (query.personId) requests = requests.where('blood_requests.patient_id', '=', query.personId);
  return requests;
}

export async function listRequestsForAdmin(db: DatabaseOrTransaction, query: DecisionListQuery<RequestStatus>) {
  const [items, total] = await Promise.all([
    filteredRequests(db, query)
      .innerJoin('users', 'users.id', 'blood_requests.patient_id')
      .selectAll('blood_requests')
      .select(personColumns)
      .orderBy(pendingFirst)
      .orderBy('blood_requests.created_at', 'desc')
      .orderBy('blood_requests.id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    filteredRequests(db, query)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count)),
  ]);
  return { items, total };
}

export function findDonationForAdmin(db: DatabaseOrTransaction, donationId: number) {
  return db
    .selectFrom('donations')
    .innerJoin('users', 'users.id', 'donations.donor_id')
    .selectAll('donations')
    .select(personColumns)
    .where('donations.id', '=', donationId)
    .executeTakeFirst();
}

export function findRequestForAdmin(db: DatabaseOrTransaction, requestId: number) {
  return db
    .selectFrom('blood_requests')
    .innerJoin('users', 'users.id', 'blood_requests.patient_id')
    .selectAll('blood_requests')
    .select(personColumns)
    .where('blood_requests.id', '=', requestId)
    .executeTakeFirst();
}

/** Every donation with its donor, oldest first (CSV export). */
export function listAllDonationsWithDonors(db: DatabaseOrTransaction) {
  return db
    .selectFrom('donations')
    .innerJoin('users', 'users.id', 'donations.donor_id')
    .selectAll('donations')
    .select(personColumns)
    .orderBy('donations.id')
    .execute();
}

/** Every request with its patient, oldest first (CSV export). */
export function listAllRequestsWithPatients(db: DatabaseOrTransaction) {
  return db
    .selectFrom('blood_requests')
    .innerJoin('users', 'users.id', 'blood_requests.patient_id')
    .selectAll('blood_requests')
    .select(personColumns)
    .orderBy('blood_requests.id')
    .execute();
}
