import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { countChangesOf } from './support/count-changes';
import { rebuildSqliteTable, replaceOnce } from './support/sqlite-rebuild';

/**
 * Donation sites and appointments (PRODUCT.md 3.6; issue 22). Frozen once shipped.
 *
 * - sites: name, address, active, weekly opening hours (JSON: weekday -> {open, close} or null),
 *   slot length, capacity per slot, closed dates (JSON array of YYYY-MM-DD).
 * - donations: site_id and slot (HH:MM) when booked at a site; checked_in_at when the donor arrived;
 *   the state `no_show` (the booked day passed without a collection).
 * - The places taken in a slot are counted from donations through donations_slot_idx.
 * - sites is counted in change_counters like the other tables.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

const OLD_DONATION_CHECK = `status in ('pending', 'cancelled', 'rejected', 'deferred', 'collected', 'released', 'discarded')`;
const NEW_DONATION_CHECK = `status in ('pending', 'cancelled', 'rejected', 'deferred', 'collected', 'released', 'discarded', 'no_show')`;
const SLOT_CHECK = `(site_id is null) = (slot is null)`;

export async function up(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('sites')
    .$call((table) =>
      isPostgres
        ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
        : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement()),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1).check(sql`active in (0, 1)`))
    .addColumn('hours', 'text', (col) => col.notNull())
    .addColumn('slot_minutes', 'integer', (col) => col.notNull().defaultTo(15).check(sql`slot_minutes between 5 and 240`))
    .addColumn('capacity', 'integer', (col) => col.notNull().defaultTo(2).check(sql`capacity between 1 and 50`))
    .addColumn('closed_dates', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema.alterTable('donations').addColumn('site_id', 'integer', (col) => col.references('sites.id')).execute();
  await db.schema.alterTable('donations').addColumn('slot', 'text').execute();
  await db.schema.alterTable('donations').addColumn('checked_in_at', 'text').execute();

  if (isPostgres) {
    await sql`alter table donations drop constraint donations_status_check`.execute(db);
    await sql`alter table donations add constraint donations_status_check check (${sql.raw(NEW_DONATION_CHECK)})`.execute(db);
    await sql`alter table donations add constraint donations_slot_with_site check (${sql.raw(SLOT_CHECK)})`.execute(db);
  } else {
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await db.transaction().execute(async (trx) => {
        await rebuildSqliteTable(trx, 'donations', (create) => {
          const widened = replaceOnce(create, OLD_DONATION_CHECK, NEW_DONATION_CHECK);
          const end = widened.lastIndexOf(')');
          return `${widened.slice(0, end)}, constraint "donations_slot_with_site" check (${SLOT_CHECK}))`;
        });
        const broken = await sql`pragma foreign_key_check`.execute(trx);
        if (broken.rows.length > 0) throw new Error(`foreign key check failed after the rebuild: ${JSON.stringify(broken.rows)}`);
      });
    } finally {
      await sql`pragma foreign_keys = on`.execute(db);
    }
  }

  // The places taken in a slot, and a site's day list.
  await db.schema.createIndex('donations_slot_idx').on('donations').columns(['site_id', 'donation_date', 'slot']).execute();

  await countChangesOf(db, 'sites', isPostgres);
}

export async function down(): Promise<void> {
  throw new Error('2026-11-25-0004-sites-and-appointments cannot be undone: restore a backup taken before it instead.');
}
