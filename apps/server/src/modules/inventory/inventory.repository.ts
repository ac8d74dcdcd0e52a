import { sql, type Transaction } from 'kysely';
import { BLOOD_GROUPS, type BloodGroup } from '@bloodbank/shared/blood-groups';
import type { UNIT_FILTERS } from '@bloodbank/shared/admin';
import type { DatabaseOrTransaction, Engine } from '../../db/database';
import type { BloodUnitRow, DB } from '../../db/types';

/**
 * Stock of a group = its units that are available and not expired today (PRODUCT.md 3.3).
 * A unit expiring today is still usable today.
 *
 * Counted from blood_stock (available units per group and expiry date, kept in step with
 * blood_units by triggers in the same transaction as every change): a few hundred rows, however
 * many bags the bank holds (test/performance/query-plans.test.ts keeps it so).
 */
function stockByGroupQuery(db: DatabaseOrTransaction, today: string) {
  return db
    .selectFrom('blood_stock')
    .select(['bloodgroup', (eb) => eb.fn.sum<number>('units').as('units')])
    // Naming every group lets both engines seek (group, expiry) in the primary key, with or without statistics.
    .where('bloodgroup', 'in', BLOOD_GROUPS)
    .where('expires_on', '>=', today)
    .groupBy('bloodgroup');
}

export async function countStockByGroup(db: DatabaseOrTransaction, today: string): Promise<Record<BloodGroup, number>> {
  const rows = await stockByGroupQuery(db, today).execute();
  const stock = Object.fromEntries(BLOOD_GROUPS.map((group) => [group, 0])) as Record<BloodGroup, number>;
  for (const row of rows) stock[row.bloodgroup] = Number(row.units);
  return stock;
}

export async function countStockTotal(db: DatabaseOrTransaction, today: string): Promise<number> {
  const row = await db
    .selectFrom('blood_stock')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('units'), eb.lit(0)).as('units'))
    .where('bloodgroup', 'in', BLOOD_GROUPS)
    .where('expires_on', '>=', today)
    .executeTakeFirstOrThrow();
  return Number(row.units);
}

export interface InventoryCounts {
  /** The stock: available and not expired today. */
  units: number;
  /** Of the stock, units whose expiry date is at most `expiringUntil`. */
  expiringSoon: number;
  /** Still marked available, but past expiry: never counted as stock, waiting to be discarded. */
  expired: number;
}

function inventoryByGroupQuery(db: DatabaseOrTransaction, today: string, expiringUntil: string) {
  return db
    .selectFrom('blood_stock')
    .select((eb) => [
      'bloodgroup',
      eb.fn
        .sum<number>(eb.case().when('expires_on', '>=', today).then(eb.ref('units')).else(eb.lit(0)).end())
        .as('units'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('expires_on', '>=', today), eb('expires_on', '<=', expiringUntil)]))
            .then(eb.ref('units'))
            .else(eb.lit(0))
            .end(),
        )
        .as('expiring_soon'),
      eb.fn
        .sum<number>(eb.case().when('expires_on', '<', today).then(eb.ref('units')).else(eb.lit(0)).end())
        .as('expired'),
    ])
    .groupBy('bloodgroup');
}

/** Per group, in one aggregate query over blood_stock: stock, expiring soon and expired. */
export async function countInventoryByGroup(
  db: DatabaseOrTransaction,
  today: string,
  expiringUntil: string,
): Promise<Record<BloodGroup, InventoryCounts>> {
  const rows = await inventoryByGroupQuery(db, today, expiringUntil).execute();
  const counts = Object.fromEntries(
    BLOOD_GROUPS.map((group) => [group, { units: 0, expiringSoon: 0, expired: 0 }]),
  ) as Record<BloodGroup, InventoryCounts>;
  for (const row of rows) {
    counts[row.bloodgroup] = {
      units: Number(row.units),
      expiringSoon: Number(row.expiring_soon),
      expired: Number(row.expired),
    };
  }
  return counts;
}

/** Usable units that expire by `expiringUntil`, soonest first. */
export function listExpiringUnits(db: DatabaseOrTransaction, today: string, expiringUntil: string, limit: number) {
  return db
    .selectFrom('blood_units')
    .select(['id', 'bloodgroup', 'expires_on'])
    .where('status', '=', 'available')
    .where('expires_on', '>=', today)
    .where('expires_on', '<=', expiringUntil)
    .orderBy('expires_on')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export interface NewUnitBatch {
  bloodgroup: BloodGroup;
  source: 'donation' | 'manual';
  donationId: number | null;
  collectedOn: string;
  expiresOn: string;
  count: number;
  at: string;
}

/** One row per bag. */
export async function insertUnits(db: DatabaseOrTransaction, batch: NewUnitBatch): Promise<BloodUnitRow[]> {
  const rows = Array.from({ length: batch.count }, () => ({
    bloodgroup: batch.bloodgroup,
    source: batch.source,
    donation_id: batch.donationId,
    collected_on: batch.collectedOn,
    expires_on: batch.expiresOn,
    status: 'available' as const,
    request_id: null,
    issued_at: null,
    discarded_at: null,
    discard_reason: null,
    created_at: batch.at,
  }));
  const inserted = await db.insertInto('blood_units').values(rows).returningAll().execute();
  return inserted.sort((a, b) => a.id - b.id);
}

/** Advisory-lock namespace for "taking units out of one group's stock" (any constant int4 works). */
const GROUP_STOCK_LOCK = 0x426c6f6f;

/**
 * Makes this transaction the only one, across every server process, taking units out of this
 * group's stock until it ends (PostgreSQL; SQLite already runs one write transaction at a time).
 * Without it, two approvals needing 3 units each could each lock 2 of the last 4 units with
 * SKIP LOCKED and both be refused although one of them could have been served.
 */
export async function lockGroupStock(trx: Transaction<DB>, engine: Engine, bloodgroup: BloodGroup): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${sql.lit(GROUP_STOCK_LOCK)}, ${sql.lit(BLOOD_GROUPS.indexOf(bloodgroup))})`.execute(trx);
}

/**
 * The first-expiring-first usable units of a group, at most `count` of them. On PostgreSQL the
 * rows are locked for the rest of the transaction and rows another transaction holds are skipped,
 * so concurrent approvals (from any number of server processes) pick disjoint units without
 * waiting on each other. SQLite runs one write transaction at a time, so there is nothing to lock.
 */
export async function lockUsableUnitsFefo(
  trx: Transaction<DB>,
  engine: Engine,
  selection: { bloodgroup: BloodGroup; today: string; count: number },
): Promise<number[]> {
  let query = trx
    .selectFrom('blood_units')
    .select('id')
    .where('bloodgroup', '=', selection.bloodgroup)
    .where('status', '=', 'available')
    .where('expires_on', '>=', selection.today)
    .orderBy('expires_on')
    .orderBy('id')
    .limit(selection.count);
  if (engine === 'postgres') query = query.forUpdate().skipLocked();
  const rows = await query.execute();
  return rows.map((row) => row.id);
}

/** Available units past their expiry date, locked like lockUsableUnitsFefo. */
export async function lockExpiredUnits(trx: Transaction<DB>, engine: Engine, today: string): Promise<number[]> {
  let query = trx
    .selectFrom('blood_units')
    .select('id')
    .where('status', '=', 'available')
    .where('expires_on', '<', today)
    .orderBy('expires_on')
    .orderBy('id');
  if (engine === 'postgres') query = query.forUpdate().skipLocked();
  const rows = await query.execute();
  return rows.map((row) => row.id);
}

/**
 * available -> issued, only for units still available and unexpired at this moment. Returns how
 * many rows changed: the caller compares it with the number it needs and rolls back otherwise, so
 * a unit is never issued twice and stock never goes below zero.
 */
export async function markUnitsIssued(
  trx: Transaction<DB>,
  unitIds: readonly number[],
  issue: { requestId: number; at: string; today: string },
): Promise<number> {
  if (unitIds.length === 0) return 0;
  const result = await trx
    .updateTable('blood_units')
    .set({ status: 'issued', request_id: issue.requestId, issued_at: issue.at })
    .where('id', 'in', [...unitIds])
    .where('status', '=', 'available')
    .where('expires_on', '>=', issue.today)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** available -> discarded; returns how many rows changed (see markUnitsIssued). */
export async function markUnitsDiscarded(
  trx: Transaction<DB>,
  unitIds: readonly number[],
  discard: { reason: string | null; at: string },
): Promise<number> {
  if (unitIds.length === 0) return 0;
  const result = await trx
    .updateTable('blood_units')
    .set({ status: 'discarded', discarded_at: discard.at, discard_reason: discard.reason })
    .where('id', 'in', [...unitIds])
    .where('status', '=', 'available')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function findUnitsByIds(db: DatabaseOrTransaction, unitIds: readonly number[]): Promise<BloodUnitRow[]> {
  if (unitIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('blood_units').selectAll().where('id', 'in', [...unitIds]).orderBy('id').execute();
}

export type UnitFilter = (typeof UNIT_FILTERS)[number];

export interface UnitListQuery {
  bloodgroup?: BloodGroup | undefined;
  filter?: UnitFilter | undefined;
  today: string;
  limit: number;
  offset: number;
}

function filteredUnits(db: DatabaseOrTransaction, query: Omit<UnitListQuery, 'limit' | 'offset'>) {
  let units = db.selectFrom('blood_units');
  if (query.bloodgroup) units = units.where('bloodgroup', '=', query.bloodgroup);
  switch (query.filter) {
    case 'available':
      // "available" means usable: an expired bag is listed under "expired" instead.
      units = units.where('status', '=', 'available').where('expires_on', '>=', query.today);
      break;
    case 'expired':
      units = units.where('status', '=', 'available').where('expires_on', '<', query.today);
      break;
    case 'issued':
    case 'discarded':
      units = units.where('status', '=', query.filter);
      break;
    case undefined:
      break;
  }
  return units;
}

/** A page of units: usable and expired ones first-expiring-first, issued and discarded ones newest first. */
export async function listUnits(db: DatabaseOrTransaction, query: UnitListQuery) {
  let page = filteredUnits(db, query).selectAll();
  if (query.filter === 'issued') page = page.orderBy('issued_at', 'desc').orderBy('id', 'desc');
  else if (query.filter === 'discarded') page = page.orderBy('discarded_at', 'desc').orderBy('id', 'desc');
  else page = page.orderBy('expires_on').orderBy('id');
  const [items, total] = await Promise.all([
    page.limit(query.limit).offset(query.offset).execute(),
    filteredUnits(db, query)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count)),
  ]);
  return { items, total };
}

/** Every unit, oldest first (CSV export). */
export function listAllUnits(db: DatabaseOrTransaction): Promise<BloodUnitRow[]> {
  return db.selectFrom('blood_units').selectAll().orderBy('id').execute();
}

/** The units each donation became, in one query; every id is present (empty when none). */
export async function listUnitIdsOfDonations(
  db: DatabaseOrTransaction,
  donationIds: readonly number[],
): Promise<Map<number, number[]>> {
  const unitIds = new Map<number, number[]>(donationIds.map((id) => [id, []]));
  if (donationIds.length === 0) return unitIds;
  const units = await db
    .selectFrom('blood_units')
    .select(['id', 'donation_id'])
    .where('donation_id', 'in', [...donationIds])
    .orderBy('id')
    .execute();
  for (const unit of units) {
    if (unit.donation_id !== null) unitIds.get(unit.donation_id)?.push(unit.id);
  }
  return unitIds;
}

/** The donations behind the units issued to a request (the "blood journey"), one row per donation. */
export function listDonationsIssuedToRequest(db: DatabaseOrTransaction, requestId: number) {
  return db
    .selectFrom('blood_units')
    .innerJoin('donations', 'donations.id', 'blood_units.donation_id')
    .select(['donations.id', 'donations.donor_id', 'donations.donation_date'])
    .where('blood_units.request_id', '=', requestId)
    .groupBy(['donations.id', 'donations.donor_id', 'donations.donation_date'])
    .orderBy('donations.id')
    .execute();
}
