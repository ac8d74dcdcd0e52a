import { sql, type Insertable, type SqlBool, type Transaction, type Updateable } from 'kysely';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { COLLECTED_DONATION_STATUSES, DONATION_STATUSES, type DonationStatus } from '@bloodbank/shared/donation';
import type { DatabaseOrTransaction, Engine } from '../../db/database';
import type { DB, DonationRow, DonationScreeningsTable, DonationsTable, DonationTestResultsTable } from '../../db/types';
import { lockedOnPostgres } from '../../db/row-locks';
import { segmentedPage, type Decision } from '../../decisions';
import { PERSON_NAME_COLUMNS } from '../users/users.repository';
import { MAILING_COLUMNS } from '../notifications/notifications.repository';

/** Where a booking is (its site's name, address and slot length), read with it: null without a site. */
export const SITE_COLUMNS = ['sites.name as site_name', 'sites.address as site_address', 'sites.slot_minutes as site_slot_minutes'] as const;
export interface SiteColumns {
  site_name: string | null;
  site_address: string | null;
  site_slot_minutes: number | null;
}
export type DonationWithSite = DonationRow & SiteColumns;

/** A donation row just written, with its site's columns from a site already in hand. */
export function withSite(row: DonationRow, site: { name: string; address: string; slot_minutes: number } | null | undefined): DonationWithSite {
  return { ...row, site_name: site?.name ?? null, site_address: site?.address ?? null, site_slot_minutes: site?.slot_minutes ?? null };
}

export async function insertDonation(
  db: DatabaseOrTransaction,
  donation: Insertable<DonationsTable>,
): Promise<DonationRow> {
  return db.insertInto('donations').values(donation).returningAll().executeTakeFirstOrThrow();
}

/** Donations with their site's name, address and slot length (null without a site): the reads below share it. */
const donationsWithSite = (db: DatabaseOrTransaction) =>
  db.selectFrom('donations').leftJoin('sites', 'sites.id', 'donations.site_id').selectAll('donations').select(SITE_COLUMNS);

export function listDonationsOfDonor(db: DatabaseOrTransaction, donorId: number): Promise<DonationWithSite[]> {
  return donationsWithSite(db)
    .where('donations.donor_id', '=', donorId)
    .orderBy('donations.id', 'desc')
    .execute();
}

/** The donor account with this id (active or deactivated): the query the reads below share. */
const donorById = (db: DatabaseOrTransaction, donorId: number) =>
  db.selectFrom('users').where('id', '=', donorId).where('role', '=', 'DONOR');

/** What the donor reads below answer about the account. */
const DONOR_COLUMNS = ['id', 'bloodgroup', 'username'] as const;

/** An active or deactivated donor account, or undefined when the id names no donor. */
export function findDonor(db: DatabaseOrTransaction, donorId: number) {
  return donorById(db, donorId).select(DONOR_COLUMNS).executeTakeFirst();
}

/**
 * findDonor, with the donor's row locked (db/row-locks.ts), by every write that checks or changes
 * what a donor may book or what became of their blood: booking, moving a booking, deferring, test
 * results, separating a unit, releasing a hold. Two instances then cannot each decide on what the
 * other has not committed yet (a booking checked before a deferral commits, inserted after it
 * looked for bookings to cancel). Lock order: the donor first, then their donations and units, so
 * no two such writes wait for each other in a circle.
 */
export function lockDonor(trx: Transaction<DB>, donorId: number, engine: Engine) {
  return lockedOnPostgres(donorById(trx, donorId).select(DONOR_COLUMNS), engine).executeTakeFirst();
}

/** The donor who books, locked as lockDonor does: their group, and what their booking confirmation e-mail needs (one read of the user). */
export function findBookingDonor(trx: Transaction<DB>, donorId: number, engine: Engine) {
  return lockedOnPostgres(donorById(trx, donorId).select(['id', 'bloodgroup', ...MAILING_COLUMNS]), engine).executeTakeFirst();
}

/**
 * What booking needs to know of the donor's donations, in one read: whether one is pending, and the
 * day they last gave blood (their latest collected donation), or null.
 */
export async function findBookingFacts(
  db: DatabaseOrTransaction,
  donorId: number,
): Promise<{ pending: boolean; lastCollection: string | null }> {
  // Two seeks in donations_donor_status_date_idx, to the donor's pending and collected donations
  // only: never through the cancelled and rejected bookings a donor may have piled up.
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('donations')
        .select((inner) => inner.fn.countAll<number>().as('pending'))
        .where('donor_id', '=', donorId)
        .where('status', '=', 'pending')
        .as('pending'),
      eb
        .selectFrom('donations')
        .select((inner) => inner.fn.max('collected_on').as('last_collection'))
        .where('donor_id', '=', donorId)
        .where('status', 'in', COLLECTED_DONATION_STATUSES)
        .as('last_collection'),
    ])
    .executeTakeFirst();
  return { pending: Number(row?.pending ?? 0) > 0, lastCollection: row?.last_collection ?? null };
}

/** The day of the donor's pending booking (they hold at most one), or null. */
export async function findPendingBookingDate(db: DatabaseOrTransaction, donorId: number): Promise<string | null> {
  const row = await db
    .selectFrom('donations')
    .select('donation_date')
    .where('donor_id', '=', donorId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row?.donation_date ?? null;
}

/** The day the donor last gave blood (their latest collected donation), or null. */
export async function findLastCollectionDate(db: DatabaseOrTransaction, donorId: number): Promise<string | null> {
  const row = await db
    .selectFrom('donations')
    .select((eb) => eb.fn.max('collected_on').as('last'))
    .where('donor_id', '=', donorId)
    .where('status', 'in', COLLECTED_DONATION_STATUSES)
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
  const counts = Object.fromEntries(DONATION_STATUSES.map((status) => [status, 0])) as Record<DonationStatus, number>;
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

/** Whose a donation is and where it stands (the donor's cancel, releasing a held unit), or undefined. */
export function findDonationOwnerAndStatus(db: DatabaseOrTransaction, donationId: number) {
  return db.selectFrom('donations').select(['donor_id', 'status', 'checked_in_at']).where('id', '=', donationId).executeTakeFirst();
}

export function findDonationWithSite(db: DatabaseOrTransaction, donationId: number): Promise<DonationWithSite | undefined> {
  return donationsWithSite(db).where('donations.id', '=', donationId).executeTakeFirst();
}

export function findDonationsWithSite(db: DatabaseOrTransaction, donationIds: readonly number[]): Promise<DonationWithSite[]> {
  if (donationIds.length === 0) return Promise.resolve([]);
  return donationsWithSite(db).where('donations.id', 'in', [...donationIds]).orderBy('donations.id').execute();
}

export function findLatestDonationOfDonor(db: DatabaseOrTransaction, donorId: number): Promise<DonationWithSite | undefined> {
  return donationsWithSite(db)
    .where('donations.donor_id', '=', donorId)
    .orderBy('donations.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

// ---------------------------------------------------------------- state changes

/**
 * Moves a donation from one state to the next in one conditional statement: undefined when it
 * was no longer in `from` (someone else moved it first). On PostgreSQL the row stays locked until
 * the transaction ends, so a concurrent change waits and then finds it moved.
 */
export function moveDonation(
  trx: Transaction<DB>,
  donationId: number,
  from: DonationStatus,
  change: Updateable<DonationsTable> & { status: DonationStatus },
  only: { ownedBy?: number; bookedOnOrBefore?: string; notCheckedIn?: boolean } = {},
): Promise<DonationRow | undefined> {
  let update = trx.updateTable('donations').set(change).where('id', '=', donationId).where('status', '=', from);
  if (only.ownedBy !== undefined) update = update.where('donor_id', '=', only.ownedBy);
  // Staff may check the donor in meanwhile (on another instance): checked here too.
  if (only.notCheckedIn) update = update.where('checked_in_at', 'is', null);
  // The booked day is checked here too, not only before: the donor may move the booking meanwhile.
  if (only.bookedOnOrBefore !== undefined) update = update.where('donation_date', '<=', only.bookedOnOrBefore);
  return update.returningAll().executeTakeFirst();
}

/**
 * The donor's pending booking (at most one), cancelled by staff's action with its reason; only one
 * booked before `bookedBefore` when given. Undefined when there was none. A deferral passes the
 * first day the donor may donate again (null when permanent: any day): a booking on a day it covers
 * can never be collected, and would hold its place and show as due to staff.
 */
export function cancelPendingBookingOf(
  trx: Transaction<DB>,
  donorId: number,
  cancellation: { by: number; at: string; reason: string; bookedBefore?: string | null },
): Promise<DonationRow | undefined> {
  let update = trx
    .updateTable('donations')
    .set({ status: 'cancelled', decided_by: cancellation.by, decided_at: cancellation.at, outcome_reason: cancellation.reason })
    .where('donor_id', '=', donorId)
    .where('status', '=', 'pending');
  if (cancellation.bookedBefore) update = update.where('donation_date', '<', cancellation.bookedBefore);
  return update.returningAll().executeTakeFirst();
}

/** pending -> rejected (by staff, with an optional reason shown to the donor). */
export function decidePendingDonation(
  trx: Transaction<DB>,
  donationId: number,
  status: 'rejected',
  decision: Decision,
): Promise<DonationRow | undefined> {
  return moveDonation(trx, donationId, 'pending', {
    status,
    rejection_reason: decision.rejectionReason,
    decided_by: decision.decidedBy,
    decided_at: decision.at,
  });
}

export async function insertScreening(trx: Transaction<DB>, screening: Insertable<DonationScreeningsTable>): Promise<void> {
  await trx.insertInto('donation_screenings').values(screening).execute();
}

export async function insertTestResults(trx: Transaction<DB>, results: Insertable<DonationTestResultsTable>): Promise<void> {
  await trx.insertInto('donation_test_results').values(results).execute();
}

/** The donor's group, corrected by a confirmed test result. */
export async function correctDonorBloodGroup(trx: Transaction<DB>, donorId: number, bloodgroup: BloodGroup, at: string) {
  await trx.updateTable('users').set({ bloodgroup, updated_at: at }).where('id', '=', donorId).execute();
}

// ---------------------------------------------------------------- the admin's side

export interface DonationListQuery {
  status?: DonationStatus | undefined;
  /** Only bookings due on or before this day ... */
  dueBy?: string | undefined;
  /** ... or only those booked for a later day (the upcoming ones). */
  bookedAfter?: string | undefined;
  personId?: number | undefined;
  limit: number;
  offset: number;
}

type Segment = 'bookings' | 'awaiting_results' | 'history';

function filteredDonations(db: DatabaseOrTransaction, query: DonationListQuery, segment?: Segment) {
  let donations = db.selectFrom('donations');
  if (query.status) donations = donations.where('donations.status', '=', query.status);
  if (query.dueBy) donations = donations.where('donations.status', '=', 'pending').where('donations.donation_date', '<=', query.dueBy);
  if (query.bookedAfter) {
    donations = donations.where('donations.status', '=', 'pending').where('donations.donation_date', '>', query.bookedAfter);
  }
  if (segment === 'bookings') donations = donations.where('donations.status', '=', 'pending');
  if (segment === 'awaiting_results') donations = donations.where('donations.status', '=', 'collected');
  if (segment === 'history') donations = donations.where('donations.status', 'not in', ['pending', 'collected']);
  if (query.personId) donations = donations.where('donations.donor_id', '=', query.personId);
  return donations;
}

/**
 * Manage Donations: the bookings (earliest date and time first, so the ones due today lead), then the
 * donations awaiting results (oldest collection first), then the rest (newest first). Each run is
 * read in its own index order (decisions.ts segmentedPage), never by sorting the whole table.
 */
export async function listDonationsForAdmin(db: DatabaseOrTransaction, query: DonationListQuery) {
  const count = (segment?: Segment) =>
    filteredDonations(db, query, segment)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  const read = (segment: Segment) => (limit: number, offset: number) => {
    let rows = filteredDonations(db, query, segment)
      .innerJoin('users', 'users.id', 'donations.donor_id')
      .leftJoin('sites', 'sites.id', 'donations.site_id')
      .selectAll('donations')
      .select(PERSON_NAME_COLUMNS)
      .select('users.bloodgroup as donor_bloodgroup')
      .select(SITE_COLUMNS);
    // By day, then by the slot's time, in donations_status_date_slot_idx's order. A booking by date
    // alone has no slot: SQLite lists it before that day's slots, PostgreSQL after them (each engine's
    // own NULL order, kept so that neither sorts). A day holds both only when sites were added after
    // date-only bookings were made.
    if (segment === 'bookings') rows = rows.orderBy('donations.donation_date').orderBy('donations.slot').orderBy('donations.id');
    else if (segment === 'awaiting_results') rows = rows.orderBy('donations.collected_on').orderBy('donations.id');
    else rows = rows.orderBy('donations.created_at', 'desc').orderBy('donations.id', 'desc');
    return rows.limit(limit).offset(offset).execute();
  };
  const [bookings, awaitingResults, total] = await Promise.all([count('bookings'), count('awaiting_results'), count()]);
  const items = await segmentedPage(
    [
      { count: bookings, read: read('bookings') },
      { count: awaitingResults, read: read('awaiting_results') },
      { count: Number.POSITIVE_INFINITY, read: read('history') },
    ],
    query.limit,
    query.offset,
  );
  return { items, total };
}

/** What staff recorded for these donations: screenings and test results, with who recorded them. */
export async function listLifecycleRecords(db: DatabaseOrTransaction, donationIds: readonly number[]) {
  if (donationIds.length === 0) return { screenings: [], results: [] };
  const [screenings, results] = await Promise.all([
    db
      .selectFrom('donation_screenings')
      .innerJoin('users', 'users.id', 'donation_screenings.recorded_by')
      .selectAll('donation_screenings')
      .select('users.username as recorded_by_username')
      .where('donation_screenings.donation_id', 'in', [...donationIds])
      .execute(),
    db
      .selectFrom('donation_test_results')
      .innerJoin('users', 'users.id', 'donation_test_results.recorded_by')
      .selectAll('donation_test_results')
      .select('users.username as recorded_by_username')
      .where('donation_test_results.donation_id', 'in', [...donationIds])
      .execute(),
  ]);
  return { screenings, results };
}
export type LifecycleRecords = Awaited<ReturnType<typeof listLifecycleRecords>>;

export function findDonationForAdmin(db: DatabaseOrTransaction, donationId: number) {
  return db
    .selectFrom('donations')
    .innerJoin('users', 'users.id', 'donations.donor_id')
    .leftJoin('sites', 'sites.id', 'donations.site_id')
    .selectAll('donations')
    .select(PERSON_NAME_COLUMNS)
    .select('users.bloodgroup as donor_bloodgroup')
    .select(SITE_COLUMNS)
    .where('donations.id', '=', donationId)
    .executeTakeFirst();
}

/** Donations with their donor, by id, `limit` after `afterId` (the CSV export reads them a chunk at a time). */
export function listDonationsWithDonorsAfter(db: DatabaseOrTransaction, afterId: number, limit: number) {
  return db
    .selectFrom('donations')
    .innerJoin('users', 'users.id', 'donations.donor_id')
    .selectAll('donations')
    .select(PERSON_NAME_COLUMNS)
    .where('donations.id', '>', afterId)
    .orderBy('donations.id')
    .limit(limit)
    .execute();
}

/**
 * A condition for the queries that pick donors to tell something ("you can donate again"): the
 * donor in `donorColumn` holds no booking still to come.
 */
export function noPendingBooking(donorColumn: string) {
  return sql<SqlBool>`not exists (select 1 from donations as booked where booked.donor_id = ${sql.ref(donorColumn)} and booked.status = 'pending')`;
}
