import type { Kysely } from 'kysely';

/**
 * The places taken in a slot are counted by status without reading the donations themselves.
 * Frozen once shipped.
 *
 * `donations_slot_idx` (site_id, donation_date, slot) found every booking a slot ever had,
 * cancelled and rejected ones too, and read each row to learn its status: a slot whose bookings
 * were cancelled and made again many times (a donor moving back and forth, the benchmark's
 * book-and-cancel) made every booking of it slower. `donations_slot_status_idx` adds the status, so
 * the count seeks straight to the statuses that hold a place (sites.repository.ts) and reads the
 * index alone. It begins with the same columns, so the day list keeps its index.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('donations_slot_status_idx')
    .on('donations')
    .columns(['site_id', 'donation_date', 'slot', 'status'])
    .execute();
  await db.schema.dropIndex('donations_slot_idx').ifExists().execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.createIndex('donations_slot_idx').ifNotExists().on('donations').columns(['site_id', 'donation_date', 'slot']).execute();
  await db.schema.dropIndex('donations_slot_status_idx').ifExists().execute();
}
