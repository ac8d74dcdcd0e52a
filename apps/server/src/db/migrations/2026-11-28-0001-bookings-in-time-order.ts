import type { Kysely } from 'kysely';

/**
 * Manage Donations lists the bookings in the order staff see donors arrive: by day, then by the
 * slot's time (a new nurse found 12:30, 12:40, then 09:45, the order they were booked in). Frozen
 * once shipped.
 *
 * `donations_status_date_slot_idx` (status, donation_date, slot, id) keeps that list read in index
 * order, a page at a time, never sorted (donations.repository.ts listDonationsForAdmin). It begins
 * with the columns of `donations_status_date_idx`, which it replaces for every other use.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('donations_status_date_slot_idx')
    .on('donations')
    .columns(['status', 'donation_date', 'slot', 'id'])
    .execute();
  await db.schema.dropIndex('donations_status_date_idx').ifExists().execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.createIndex('donations_status_date_idx').ifNotExists().on('donations').columns(['status', 'donation_date', 'id']).execute();
  await db.schema.dropIndex('donations_status_date_slot_idx').ifExists().execute();
}
