import { sql, type Insertable, type SqlBool, type Transaction } from 'kysely';
import type { DeferralType } from '@bloodbank/shared/donation-lifecycle';
import type { DatabaseOrTransaction } from '../../db/database';
import type { DB, DeferralsTable } from '../../db/types';

const deferralColumns = [
  'deferrals.id',
  'deferrals.donor_id',
  'deferrals.type',
  'deferrals.until',
  'deferrals.reason',
  'deferrals.source',
  'deferrals.donation_id',
  'deferrals.created_at',
  'deferrals.lifted_at',
  'deferrals.lift_reason',
] as const;

/** Deferrals with the usernames of who set and lifted them. */
function deferralsWithNames(db: DatabaseOrTransaction) {
  return db
    .selectFrom('deferrals')
    .innerJoin('users as creator', 'creator.id', 'deferrals.created_by')
    .leftJoin('users as lifter', 'lifter.id', 'deferrals.lifted_by')
    .select(deferralColumns)
    .select(['creator.username as created_by', 'lifter.username as lifted_by']);
}
export type DeferralWithNames = NonNullable<Awaited<ReturnType<typeof findDeferral>>>;

export function findDeferral(db: DatabaseOrTransaction, deferralId: number) {
  return deferralsWithNames(db).where('deferrals.id', '=', deferralId).executeTakeFirst();
}

/** A donor's deferrals, newest first (the admin's donor page). */
export function listDeferralsOfDonor(db: DatabaseOrTransaction, donorId: number) {
  return deferralsWithNames(db).where('deferrals.donor_id', '=', donorId).orderBy('deferrals.id', 'desc').execute();
}

export async function insertDeferral(db: DatabaseOrTransaction, deferral: Insertable<DeferralsTable>): Promise<number> {
  const row = await db.insertInto('deferrals').values(deferral).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The deferrals that stop donors from giving blood on `date`: not lifted, and permanent or ending
 * after that day (`until` is the first day they may donate again), each donor's longest first: a
 * permanent one, then the one that ends last.
 */
function deferralsInForceOn(db: DatabaseOrTransaction, date: string) {
  return db
    .selectFrom('deferrals')
    .select(['id', 'donor_id', 'type', 'until'])
    .where('lifted_at', 'is', null)
    .where((eb) => eb.or([eb('type', '=', 'permanent'), eb('until', '>', date)]))
    .orderBy((eb) => eb.case().when('type', '=', 'permanent').then(0).else(1).end())
    .orderBy('until', 'desc');
}

/** The deferral that stops this donor from giving blood on `date` (the longest), or undefined. */
export function findDeferralInForce(db: DatabaseOrTransaction, donorId: number, date: string) {
  return deferralsInForceOn(db, date).where('donor_id', '=', donorId).limit(1).executeTakeFirst();
}

/**
 * The deferral in force on `date` of each of these donors (the longest, as findDeferralInForce
 * chooses it): one query for a page of donors, by deferrals_donor_idx.
 */
export async function deferralsInForceOf(
  db: DatabaseOrTransaction,
  donorIds: readonly number[],
  date: string,
): Promise<Map<number, { type: DeferralType; until: string | null }>> {
  const inForce = new Map<number, { type: DeferralType; until: string | null }>();
  if (donorIds.length === 0) return inForce;
  const rows = await deferralsInForceOn(db, date).where('donor_id', 'in', [...donorIds]).execute();
  // Longest first: each donor's first row is the one in force.
  for (const row of rows) if (!inForce.has(row.donor_id)) inForce.set(row.donor_id, { type: row.type, until: row.until });
  return inForce;
}

/** Not lifted yet -> lifted; undefined when another admin lifted it first. */
export function liftDeferralOnce(
  trx: Transaction<DB>,
  deferralId: number,
  lift: { by: number; reason: string; at: string },
) {
  return trx
    .updateTable('deferrals')
    .set({ lifted_at: lift.at, lifted_by: lift.by, lift_reason: lift.reason })
    .where('id', '=', deferralId)
    .where('lifted_at', 'is', null)
    .returning(['id', 'donor_id', 'type', 'until'])
    .executeTakeFirst();
}

/**
 * A condition for the queries that pick donors to tell something (call-outs, "you can donate
 * again"): the donor in `donorColumn` has no deferral in force on `date` (PRODUCT.md 3.7: not lifted,
 * and permanent or ending after that day).
 */
export function noDeferralInForce(donorColumn: string, date: string) {
  return sql<SqlBool>`not exists (select 1 from deferrals as in_force where in_force.donor_id = ${sql.ref(donorColumn)} and in_force.lifted_at is null and (in_force.type = 'permanent' or in_force.until > ${date}))`;
}
