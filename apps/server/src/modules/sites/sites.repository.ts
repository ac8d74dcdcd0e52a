import { sql, type Insertable, type Transaction, type Updateable } from 'kysely';
import { DONATION_STATUSES, type DonationStatus } from '@bloodbank/shared/donation';
import type { DatabaseOrTransaction } from '../../db/database';
import type { Engine } from '../../db/database';
import type { DB, DonationsTable, SitesTable } from '../../db/types';
import { addDays } from '@bloodbank/shared/dates';
import type { OpeningHours } from '@bloodbank/shared/sites';
import { PERSON_NAME_COLUMNS } from '../users/users.repository';
import { isOpenAt, openingHoursOn, type SiteCalendar } from './opening-hours';

/** The two states that give a booking's place in its slot back. */
export const PLACE_FREEING_STATUSES = ['cancelled', 'rejected'] as const;
/**
 * Every other state holds its place (a collection, a deferral at screening and a no-show happened
 * in it). Queries name these rather than `not in` the freeing ones: donations_slot_status_idx then
 * seeks to them, however many cancelled bookings the slot has had.
 */
export const PLACE_HOLDING_STATUSES = DONATION_STATUSES.filter(
  (status) => !(PLACE_FREEING_STATUSES as readonly DonationStatus[]).includes(status),
);

export function listSiteRows(db: DatabaseOrTransaction) {
  return db.selectFrom('sites').selectAll().orderBy('active', 'desc').orderBy('name').orderBy('id').execute();
}

export function findSiteRow(db: DatabaseOrTransaction, siteId: number) {
  return db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
}

/**
 * The site, locked until the transaction ends on PostgreSQL: bookings of one site then take turns,
 * so counting a slot's places and taking one cannot interleave on any number of instances. (SQLite
 * has one writer at a time: its write transactions already take turns.)
 */
export function lockSiteRow(trx: Transaction<DB>, siteId: number, engine: Engine) {
  const query = trx.selectFrom('sites').selectAll().where('id', '=', siteId);
  return (engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** Every site's id and name, active or not (a blood bank has a handful of sites). */
export function listSiteNames(trx: Transaction<DB>) {
  return trx.selectFrom('sites').select(['id', 'name']).execute();
}

/** Advisory-lock key space of "giving a site a name" (any constant int4 works; the name's hash is the second key). */
const SITE_NAME_LOCK = 0x53697465;

/**
 * Makes this transaction the only one, across every server process, giving a site this name (by
 * its key, site-names.ts) until it ends (PostgreSQL; SQLite already runs one write transaction at
 * a time). Two instances creating "Kothrud Camp" at once then take turns, and the second one's
 * check sees the first one's site (each statement of a READ COMMITTED transaction sees what has
 * committed before it). Per name, not one lock for all sites: only writes of the same name wait.
 */
export async function lockSiteName(trx: Transaction<DB>, nameKey: string, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${sql.lit(SITE_NAME_LOCK)}, hashtext(${nameKey}))`.execute(trx);
}

export async function insertSite(trx: Transaction<DB>, site: Insertable<SitesTable>) {
  return trx.insertInto('sites').values(site).returningAll().executeTakeFirstOrThrow();
}

export function updateSiteRow(trx: Transaction<DB>, siteId: number, change: Updateable<SitesTable>) {
  return trx.updateTable('sites').set(change).where('id', '=', siteId).returningAll().executeTakeFirst();
}

/**
 * Places taken in one slot, leaving out one booking (the one being moved). A booking holds its place
 * in the slot its time falls in, so one made before the slot length changed (09:15, in what is now
 * the 09:00-09:30 slot) still counts. Two index seeks: the slot's start, by status (the slot's
 * cancelled bookings are never read), and the times strictly inside it, where bookings exist only
 * after such a change.
 */
export async function countPlacesTaken(
  trx: Transaction<DB>,
  slot: { siteId: number; date: string; time: string; ends: string },
  exceptDonationId?: number,
): Promise<number> {
  let query = trx
    .selectFrom('donations')
    .select((eb) => eb.fn.countAll<number>().as('taken'))
    .where((eb) => {
      const ofTheDay = [eb('site_id', '=', slot.siteId), eb('donation_date', '=', slot.date)];
      const holding = eb('status', 'in', PLACE_HOLDING_STATUSES);
      return eb.or([
        eb.and([...ofTheDay, eb('slot', '=', slot.time), holding]),
        eb.and([...ofTheDay, eb('slot', '>', slot.time), eb('slot', '<', slot.ends), holding]),
      ]);
    });
  if (exceptDonationId !== undefined) query = query.where('id', '!=', exceptDonationId);
  const row = await query.executeTakeFirst();
  return Number(row?.taken ?? 0);
}

/** Places taken at each booked time of a site's day (listSlots puts each time in its slot). */
/** Places taken in each slot of a site's day. */
export async function placesTakenByTime(
  db: DatabaseOrTransaction,
  siteId: number,
  date: string,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('donations')
    .select(['slot', (eb) => eb.fn.countAll<number>().as('taken')])
    .where('site_id', '=', siteId)
    .where('donation_date', '=', date)
    .where('status', 'in', PLACE_HOLDING_STATUSES)
    .groupBy('slot')
    .execute();
  return new Map(rows.map((row) => [row.slot ?? '', Number(row.taken)]));
}

/** A site's bookings of one day that hold a place, by time then booking, with the donor's name. */
export function listDayBookings(db: DatabaseOrTransaction, siteId: number, date: string) {
  return db
    .selectFrom('donations')
    .innerJoin('users', 'users.id', 'donations.donor_id')
    .select([
      'donations.id',
      'donations.slot',
      'donations.donor_id',
      'donations.bloodgroup',
      'donations.units',
      'donations.status',
      'donations.checked_in_at',
      'donations.disease',
      'donations.last_donation',
      ...PERSON_NAME_COLUMNS,
    ])
    .where('donations.site_id', '=', siteId)
    .where('donations.donation_date', '=', date)
    .where('donations.status', 'in', PLACE_HOLDING_STATUSES)
    .orderBy('donations.slot')
    .orderBy('donations.id')
    .execute();
}

/**
 * A site's pending bookings from `from` on, nobody checked in, that the calendar `closedBy` closes
 * (decision 0017: an edit of the site's calendar cancels them; 0025: staff see them first): at a
 * closed date or weekday, or before opening or from closing on. A booking made by date alone has
 * no time and is never closed by hours. With their donors' names, in time order.
 *
 * The query reads a superset that the index (site, day, time) finds quickly: on each day up to
 * CANDIDATE_DAYS ahead, every booking when it is closed that day, else those outside its hours;
 * after that, all of them. The calendar's own rule (isOpenAt) then decides each one.
 */
export async function listBookingsClosedBy(db: DatabaseOrTransaction, siteId: number, from: string, closedBy: SiteCalendar) {
  const last = addDays(from, CANDIDATE_DAYS);
  const closedDays: string[] = [];
  const daysByHours = new Map<string, { hours: OpeningHours; days: string[] }>();
  for (let day = from; day <= last; day = addDays(day, 1)) {
    const hours = openingHoursOn(closedBy, day);
    if (!hours) closedDays.push(day);
    else {
      const key = `${hours.open}-${hours.close}`;
      const group = daysByHours.get(key) ?? { hours, days: [] };
      group.days.push(day);
      daysByHours.set(key, group);
    }
  }
  const candidates = await db
    .selectFrom('donations')
    .innerJoin('users', 'users.id', 'donations.donor_id')
    .select(['donations.id', 'donations.donor_id', 'donations.donation_date', 'donations.slot', 'donations.units', ...PERSON_NAME_COLUMNS])
    .where('donations.site_id', '=', siteId)
    .where('donations.status', '=', 'pending')
    .where('donations.checked_in_at', 'is', null)
    .where('donations.donation_date', '>=', from)
    .where((eb) =>
      eb.or([
        ...(closedDays.length ? [eb('donations.donation_date', 'in', closedDays)] : []),
        ...[...daysByHours.values()].map(({ hours, days }) =>
          eb.and([
            eb('donations.donation_date', 'in', days),
            eb.or([eb('donations.slot', '<', hours.open), eb('donations.slot', '>=', hours.close)]),
          ]),
        ),
        eb('donations.donation_date', '>', last),
      ]),
    )
    .orderBy('donations.donation_date')
    .orderBy('donations.slot')
    .orderBy('donations.id')
    .execute();
  return candidates.filter(
    (booking): booking is typeof booking & { slot: string } =>
      booking.slot !== null && !isOpenAt(closedBy, booking.donation_date, booking.slot),
  );
}

/** Days ahead whose bookings a calendar change reads by its hours: past the booking horizon (90 days). */
const CANDIDATE_DAYS = 120;

/**
 * pending -> cancelled for a booking read by listBookingsClosedBy, only while it is still at the
 * same site, day and time with no donor checked in: undefined once it has moved or been checked in.
 */
export function cancelBookingStillAt(
  trx: Transaction<DB>,
  siteId: number,
  booking: { id: number; donation_date: string; slot: string },
  change: Updateable<DonationsTable> & { status: 'cancelled' },
) {
  return trx
    .updateTable('donations')
    .set(change)
    .where('id', '=', booking.id)
    .where('status', '=', 'pending')
    .where('site_id', '=', siteId)
    .where('donation_date', '=', booking.donation_date)
    .where('slot', '=', booking.slot)
    .where('checked_in_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Whether any site takes bookings (then a booking must name one). */
export async function anyActiveSite(db: DatabaseOrTransaction): Promise<boolean> {
  const row = await db
    .selectFrom('sites')
    .select(sql<number>`1`.as('one'))
    .where('active', '=', 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
