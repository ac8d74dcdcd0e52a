import type { DatabaseOrTransaction } from '../../db/database';
import type { DonationRow, DonationsTable } from '../../db/types';
import type { Insertable } from 'kysely';

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
