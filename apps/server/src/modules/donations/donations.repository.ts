import type { Insertable, Transaction } from 'kysely';
import type { DonationStatus } from '@bloodbank/shared/donation';
import type { DatabaseOrTransaction } from '../../db/database';
import type { DB, DonationRow, DonationsTable } from '../../db/types';
import { pendingFirstPage, type Decision, type DecisionListQuery, type StatusFilter } from '../../decisions';
import { PERSON_NAME_COLUMNS } from '../users/users.repository';

export async function insertDonation(
  db: DatabaseOrTransaction,
  donation: Insertable<DonationsTable>,
): Promise<DonationRow> {
  return db.insertInto('donations').values(donation).returningAll().executeTakeFirstOrThrow();
}

export function listDonationsOfDonor(db: DatabaseOrTransaction, donorId: number) {
  return db
    .selectFrom('donations')
    .selectAll()
    .where('donor_id', '=', donorId)
    .orderBy('id', 'desc')
    .execute();
}

export async function findDonorBloodGroup(db: DatabaseOrTransaction, donorId: number) {
  const row = await db
    .selectFrom('users')
    .select('bloodgroup')
    .where('id', '=', donorId)
    .where('role', '=', 'DONOR')
    .executeTakeFirst();
  return row?.bloodgroup ?? null;
}

export async function hasPendingDonation(db: DatabaseOrTransaction, donorId: number): Promise<boolean> {
  const row = await db
    .selectFrom('donations')
    .select('id')
    .where('donor_id', '=', donorId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

/** The date of the donor's latest approved donation (by donation date), or null. */
export async function findLastApprovedDonationDate(
  db: DatabaseOrTransaction,
  donorId: number,
): Promise<string | null> {
  const row = await db
    .selectFrom('donations')
    .select((eb) => eb.fn.max('donation_date').as('last'))
    .where('donor_id', '=', donorId)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  return row?.last ?? null;
}

export async function countDonationsByStatus(db: DatabaseOrTransaction, donorId: number) {
  const rows = await db
    .selectFrom('donations')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('donor_id', '=', donorId)
    .groupBy('status')
    .execute();
  const counts = { pending: 0, approved: 0, rejected: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

// ---------------------------------------------------------------- the admin's side

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

function filteredDonations(db: DatabaseOrTransaction, status: StatusFilter<DonationStatus>, personId: number | undefined) {
  let donations = db.selectFrom('donations');
  if (typeof status === 'string') donations = donations.where('donations.status', '=', status);
  else if (status) donations = donations.where('donations.status', '!=', status.not);
  if (personId) donations = donations.where('donations.donor_id', '=', personId);
  return donations;
}

export async function listDonationsForAdmin(db: DatabaseOrTransaction, query: DecisionListQuery<DonationStatus>) {
  const count = (status: StatusFilter<DonationStatus>) =>
    filteredDonations(db, status, query.personId)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  const read = (status: StatusFilter<DonationStatus>, limit: number, offset: number) =>
    filteredDonations(db, status, query.personId)
      .innerJoin('users', 'users.id', 'donations.donor_id')
      .selectAll('donations')
      .select(PERSON_NAME_COLUMNS)
      .orderBy('donations.created_at', 'desc')
      .orderBy('donations.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  if (query.status) {
    const [items, total] = await Promise.all([read(query.status, query.limit, query.offset), count(query.status)]);
    return { items, total };
  }
  const [pendingCount, total] = await Promise.all([count('pending'), count(undefined)]);
  return { items: await pendingFirstPage(pendingCount, query.limit, query.offset, read), total };
}

export function findDonationForAdmin(db: DatabaseOrTransaction, donationId: number) {
  return db
    .selectFrom('donations')
    .innerJoin('users', 'users.id', 'donations.donor_id')
    .selectAll('donations')
    .select(PERSON_NAME_COLUMNS)
    .where('donations.id', '=', donationId)
    .executeTakeFirst();
}

/** Every donation with its donor, oldest first (CSV export). */
export function listAllDonationsWithDonors(db: DatabaseOrTransaction) {
  return db
    .selectFrom('donations')
    .innerJoin('users', 'users.id', 'donations.donor_id')
    .selectAll('donations')
    .select(PERSON_NAME_COLUMNS)
    .orderBy('donations.id')
    .execute();
}
