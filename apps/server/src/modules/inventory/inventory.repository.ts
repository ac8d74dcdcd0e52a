import { sql, type Transaction } from 'kysely';
import { BLOOD_GROUPS, type BloodGroup } from '@bloodbank/shared/blood-groups';
import type { HoldReason, UNIT_FILTERS } from '@bloodbank/shared/admin';
import {
  COMPONENTS,
  emptyComponentCounts,
  RED_CELL_UNIT_COMPONENTS,
  unitComponentsFor,
  type Component,
  type ComponentCounts,
} from '@bloodbank/shared/components';
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
  return (
    db
      .selectFrom('blood_stock')
      .select(['bloodgroup', 'component', (eb) => eb.fn.sum<number>('units').as('units')])
      // Naming every group and component lets both engines seek (group, component, expiry) in the
      // primary key, with or without statistics.
      .where('bloodgroup', 'in', BLOOD_GROUPS)
      .where('component', 'in', COMPONENTS)
      .where('expires_on', '>=', today)
      .groupBy(['bloodgroup', 'component'])
  );
}

/** The stock of every group, per component: available units not expired today. */
export async function countStockByGroupAndComponent(
  db: DatabaseOrTransaction,
  today: string,
): Promise<Record<BloodGroup, ComponentCounts>> {
  const rows = await stockByGroupQuery(db, today).execute();
  const stock = Object.fromEntries(BLOOD_GROUPS.map((group) => [group, emptyComponentCounts()])) as Record<
    BloodGroup,
    ComponentCounts
  >;
  for (const row of rows) stock[row.bloodgroup][row.component] = Number(row.units);
  return stock;
}

/** Per group, the units that can fill a request for `component` (red cells: red cells and whole blood). */
export async function countStockByGroup(
  db: DatabaseOrTransaction,
  today: string,
  component: Component = 'red_cells',
): Promise<Record<BloodGroup, number>> {
  const byComponent = await countStockByGroupAndComponent(db, today);
  const sources = unitComponentsFor(component);
  return Object.fromEntries(
    BLOOD_GROUPS.map((group) => [group, sources.reduce((sum, source) => sum + byComponent[group][source], 0)]),
  ) as Record<BloodGroup, number>;
}

/** "Units of blood" over every group: red cells plus whole blood (PRODUCT.md 3.3). */
export async function countStockTotal(db: DatabaseOrTransaction, today: string): Promise<number> {
  const row = await db
    .selectFrom('blood_stock')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('units'), eb.lit(0)).as('units'))
    .where('bloodgroup', 'in', BLOOD_GROUPS)
    .where('component', 'in', RED_CELL_UNIT_COMPONENTS)
    .where('expires_on', '>=', today)
    .executeTakeFirstOrThrow();
  return Number(row.units);
}

export interface InventoryCounts {
  /** The stock of each component: available and not expired today. */
  components: ComponentCounts;
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
      'component',
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
    .groupBy(['bloodgroup', 'component']);
}

/** Per group, in one aggregate query over blood_stock: stock per component, expiring soon and expired (all components). */
export async function countInventoryByGroup(
  db: DatabaseOrTransaction,
  today: string,
  expiringUntil: string,
): Promise<Record<BloodGroup, InventoryCounts>> {
  const rows = await inventoryByGroupQuery(db, today, expiringUntil).execute();
  const counts = Object.fromEntries(
    BLOOD_GROUPS.map((group) => [group, { components: emptyComponentCounts(), expiringSoon: 0, expired: 0 }]),
  ) as Record<BloodGroup, InventoryCounts>;
  for (const row of rows) {
    const group = counts[row.bloodgroup];
    group.components[row.component] = Number(row.units);
    group.expiringSoon += Number(row.expiring_soon);
    group.expired += Number(row.expired);
  }
  return counts;
}

/** Usable units that expire by `expiringUntil`, soonest first. */
export function listExpiringUnits(db: DatabaseOrTransaction, today: string, expiringUntil: string, limit: number) {
  return db
    .selectFrom('blood_units')
    .select(['id', 'bloodgroup', 'component', 'expires_on'])
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
  component: Component;
  /** The whole-blood unit these were separated from. */
  parentUnitId?: number | null;
  source: 'donation' | 'manual';
  donationId: number | null;
  collectedOn: string;
  expiresOn: string;
  count: number;
  at: string;
  /**
   * Quarantined with this reason (a collection's units wait for their tests; a component keeps its
   * parent's hold); otherwise available at once (received units, components of released blood).
   */
  holdReason?: HoldReason | null;
}

/** One row per bag. */
export async function insertUnits(db: DatabaseOrTransaction, batch: NewUnitBatch): Promise<BloodUnitRow[]> {
  const rows = Array.from({ length: batch.count }, () => ({
    bloodgroup: batch.bloodgroup,
    component: batch.component,
    parent_unit_id: batch.parentUnitId ?? null,
    source: batch.source,
    donation_id: batch.donationId,
    collected_on: batch.collectedOn,
    expires_on: batch.expiresOn,
    status: batch.holdReason ? ('quarantined' as const) : ('available' as const),
    hold_reason: batch.holdReason ?? null,
    request_id: null,
    issued_at: null,
    discarded_at: null,
    discard_reason: null,
    created_at: batch.at,
  }));
  const inserted = await db.insertInto('blood_units').values(rows).returningAll().execute();
  return inserted.sort((a, b) => a.id - b.id);
}

/** Advisory-lock key for "taking units out of stock" (any constant int4 pair works). */
const STOCK_TAKING_LOCK = [0x426c6f6f, 0] as const;

/**
 * Makes this transaction the only one, across every server process, taking units out of stock
 * until it ends (PostgreSQL; SQLite already runs one write transaction at a time). Without it, two
 * approvals needing 3 units each could each lock 2 of the last 4 units with SKIP LOCKED and both be
 * refused although one of them could have been served. One lock for all groups, not one per group:
 * a batch of writes holds the locks of all its works until it commits, and two instances' batches
 * taking two groups in opposite orders deadlocked, each costing a second before PostgreSQL noticed
 * (a concurrency attack: 57 deadlocks, approvals taking up to 36 s). Taking stock is rare and quick.
 */
export async function lockStockTaking(trx: Transaction<DB>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${sql.lit(STOCK_TAKING_LOCK[0])}, ${sql.lit(STOCK_TAKING_LOCK[1])})`.execute(trx);
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
  selection: { bloodgroup: BloodGroup; components: readonly Component[]; today: string; count: number },
): Promise<number[]> {
  let query = trx
    .selectFrom('blood_units')
    .select('id')
    .where('bloodgroup', '=', selection.bloodgroup)
    .where('component', 'in', selection.components)
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

/** Whether any unit on the shelf (available) has expired by `today` (the discard list is not empty). */
export async function anyExpiredUnitOnShelf(db: DatabaseOrTransaction, today: string): Promise<boolean> {
  const row = await db
    .selectFrom('blood_units')
    .select('id')
    .where('status', '=', 'available')
    .where('expires_on', '<', today)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
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

/** Units that can still be discarded: in stock, or quarantined (in testing or on hold). */
export const DISCARDABLE_UNIT_STATUSES = ['available', 'quarantined'] as const;

/** available or quarantined -> discarded; returns how many rows changed (see markUnitsIssued). */
export async function markUnitsDiscarded(
  trx: Transaction<DB>,
  unitIds: readonly number[],
  discard: { reason: string | null; at: string },
): Promise<number> {
  if (unitIds.length === 0) return 0;
  const result = await trx
    .updateTable('blood_units')
    .set({ status: 'discarded', hold_reason: null, discarded_at: discard.at, discard_reason: discard.reason })
    .where('id', 'in', [...unitIds])
    .where('status', 'in', DISCARDABLE_UNIT_STATUSES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// ---------------------------------------------------------------- quarantine (PRODUCT.md 3.2)

/**
 * A donation's units waiting for its tests, relabelled with the group the lab confirmed: the
 * quarantined ones and a whole-blood unit already separated into them (its record follows its
 * children).
 */
export async function relabelUnitsInTesting(trx: Transaction<DB>, donationId: number, bloodgroup: BloodGroup): Promise<void> {
  await trx
    .updateTable('blood_units')
    .set({ bloodgroup })
    .where('donation_id', '=', donationId)
    .where('status', 'in', ['quarantined', 'processed'])
    .execute();
}

/**
 * All tests negative: the donation's units in testing become stock. A unit a lookback put on hold
 * meanwhile stays held: staff release it (release-held-unit.ts).
 */
export async function releaseUnitsInTesting(trx: Transaction<DB>, donationId: number): Promise<number[]> {
  const rows = await trx
    .updateTable('blood_units')
    .set({ status: 'available', hold_reason: null })
    .where('donation_id', '=', donationId)
    .where('status', '=', 'quarantined')
    .where('hold_reason', '=', 'testing')
    .returning('id')
    .execute();
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/** A reactive test: every unit of the donation still in the building is discarded. */
export async function discardUnitsOfDonation(
  trx: Transaction<DB>,
  donationId: number,
  discard: { reason: string; at: string },
): Promise<number[]> {
  const rows = await trx
    .updateTable('blood_units')
    .set({ status: 'discarded', hold_reason: null, discarded_at: discard.at, discard_reason: discard.reason })
    .where('donation_id', '=', donationId)
    .where('status', 'in', DISCARDABLE_UNIT_STATUSES)
    .returning('id')
    .execute();
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/**
 * Lookback: the donor's other units collected since `since` that are in stock or in testing go on
 * hold, out of stock, until staff release or discard them.
 */
export async function holdUnitsForLookback(
  trx: Transaction<DB>,
  lookback: { donorId: number; exceptDonationId: number; since: string },
): Promise<number[]> {
  const rows = await trx
    .updateTable('blood_units')
    .set({ status: 'quarantined', hold_reason: 'lookback' })
    .where('donation_id', 'in', (eb) =>
      eb
        .selectFrom('donations')
        .select('donations.id')
        .where('donations.donor_id', '=', lookback.donorId)
        .where('donations.id', '!=', lookback.exceptDonationId),
    )
    .where('collected_on', '>=', lookback.since)
    .where('status', 'in', DISCARDABLE_UNIT_STATUSES)
    .returning('id')
    .execute();
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/**
 * A lookback hold released: back to stock, or back to testing when its own donation has no results
 * yet. Undefined when the unit was not on a lookback hold (any more).
 */
export function releaseLookbackHold(trx: Transaction<DB>, unitId: number, backTo: 'available' | 'testing') {
  return trx
    .updateTable('blood_units')
    .set(backTo === 'available' ? { status: 'available', hold_reason: null } : { status: 'quarantined', hold_reason: 'testing' })
    .where('id', '=', unitId)
    .where('status', '=', 'quarantined')
    .where('hold_reason', '=', 'lookback')
    .returningAll()
    .executeTakeFirst();
}

/** Quarantined units per group: the dashboard's "In testing" beside the stock. */
/** Quarantined units per group: those awaiting their donation's test results, and those on a lookback hold. */
export async function countQuarantinedByGroup(
  db: DatabaseOrTransaction,
): Promise<{ inTesting: Record<BloodGroup, number>; onHold: Record<BloodGroup, number> }> {
  const rows = await db
    .selectFrom('blood_units')
    .select(['bloodgroup', 'hold_reason', (eb) => eb.fn.countAll<number>().as('units')])
    .where('status', '=', 'quarantined')
    .groupBy(['bloodgroup', 'hold_reason'])
    .execute();
  const zero = () => Object.fromEntries(BLOOD_GROUPS.map((group) => [group, 0])) as Record<BloodGroup, number>;
  const counts = { inTesting: zero(), onHold: zero() };
  for (const row of rows) counts[row.hold_reason === 'lookback' ? 'onHold' : 'inTesting'][row.bloodgroup] += Number(row.units);
  return counts;
}

export function findUnitsByIds(db: DatabaseOrTransaction, unitIds: readonly number[]): Promise<BloodUnitRow[]> {
  if (unitIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('blood_units').selectAll().where('id', 'in', [...unitIds]).orderBy('id').execute();
}

export type UnitFilter = (typeof UNIT_FILTERS)[number];

export interface UnitListQuery {
  bloodgroup?: BloodGroup | undefined;
  component?: Component | undefined;
  filter?: UnitFilter | undefined;
  /** One bag by its number, with the components separated from it (units_parent_idx). */
  unitId?: number | undefined;
  today: string;
  limit: number;
  offset: number;
}

function filteredUnits(db: DatabaseOrTransaction, query: Omit<UnitListQuery, 'limit' | 'offset'>) {
  let units = db.selectFrom('blood_units');
  if (query.unitId !== undefined) {
    const unitId = query.unitId;
    units = units.where((eb) => eb.or([eb('id', '=', unitId), eb('parent_unit_id', '=', unitId)]));
  }
  if (query.bloodgroup) units = units.where('bloodgroup', '=', query.bloodgroup);
  if (query.component) units = units.where('component', '=', query.component);
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
    case 'quarantined':
    case 'processed':
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
  // A bag by its number: the bag, then the components made from it.
  if (query.unitId !== undefined) page = page.orderBy('id');
  else if (query.filter === 'issued') page = page.orderBy('issued_at', 'desc').orderBy('id', 'desc');
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

/** Units by id, `limit` after `afterId` (the CSV export reads them a chunk at a time). */
export function listUnitsAfter(db: DatabaseOrTransaction, afterId: number, limit: number): Promise<BloodUnitRow[]> {
  return db.selectFrom('blood_units').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
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

/** The donations behind the units issued to a request (the "blood journey"), one row per donation and component. */
export function listDonationsIssuedToRequest(db: DatabaseOrTransaction, requestId: number) {
  return db
    .selectFrom('blood_units')
    .innerJoin('donations', 'donations.id', 'blood_units.donation_id')
    .select(['donations.id', 'donations.donor_id', 'donations.donation_date', 'donations.collected_on', 'blood_units.component'])
    .where('blood_units.request_id', '=', requestId)
    .groupBy(['donations.id', 'donations.donor_id', 'donations.donation_date', 'donations.collected_on', 'blood_units.component'])
    .orderBy('donations.id')
    .execute();
}

/**
 * whole blood -> processed, only while it is quarantined or available and unexpired, and only once:
 * undefined when another processing (or an issue, a discard) got there first.
 */
export function markUnitProcessed(trx: Transaction<DB>, unitId: number, today: string) {
  return trx
    .updateTable('blood_units')
    .set({ status: 'processed', hold_reason: null })
    .where('id', '=', unitId)
    .where('component', '=', 'whole_blood')
    .where('status', 'in', DISCARDABLE_UNIT_STATUSES)
    .where('expires_on', '>=', today)
    .returningAll()
    .executeTakeFirst();
}

/** The groups of these units that serve a red-cell request (red cells, whole blood): whose stock they can shorten. */
export async function redCellGroupsOf(db: DatabaseOrTransaction, unitIds: readonly number[]): Promise<BloodGroup[]> {
  if (unitIds.length === 0) return [];
  const rows = await db
    .selectFrom('blood_units')
    .select('bloodgroup')
    .distinct()
    .where('id', 'in', unitIds)
    .where('component', 'in', RED_CELL_UNIT_COMPONENTS)
    .execute();
  return rows.map((row) => row.bloodgroup);
}

/** The groups with red-cell units that left the stock by expiring on a day in [from, before): their last usable day was then. */
export async function groupsWithRedCellsExpiredBetween(db: DatabaseOrTransaction, from: string, before: string): Promise<BloodGroup[]> {
  const rows = await db
    .selectFrom('blood_units')
    .select('bloodgroup')
    .distinct()
    .where('status', '=', 'available')
    .where('component', 'in', RED_CELL_UNIT_COMPONENTS)
    .where('expires_on', '>=', from)
    .where('expires_on', '<', before)
    .execute();
  return rows.map((row) => row.bloodgroup);
}

/** The donor of each of these donations, by donation id (Manage Blood's unit lists). */
export async function findDonorsOfDonations(db: DatabaseOrTransaction, donationIds: readonly number[]) {
  if (donationIds.length === 0) return [];
  return db
    .selectFrom('donations')
    .innerJoin('users', 'users.id', 'donations.donor_id')
    .select(['donations.id as donation_id', 'users.id as donor_id', 'users.username', 'users.first_name', 'users.last_name'])
    .where('donations.id', 'in', [...new Set(donationIds)])
    .execute();
}
