import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { countChangesOf } from './support/count-changes';
import { rebuildSqliteTable, replaceOnce } from './support/sqlite-rebuild';

/**
 * The lifecycle of a donation (PRODUCT.md 3.2, 3.4, 3.7; issue 20). Frozen once shipped.
 *
 * - donations: the states pending, cancelled, rejected, deferred, collected, released, discarded.
 *   Donations approved before the lifecycle existed are `released` (their units are already stock).
 *   New columns: collected_on (the day the blood was taken, or the screening failed) and
 *   outcome_reason (what the screening or the test found: confidential, admins only).
 * - blood_units: `quarantined` (with hold_reason `testing` or `lookback`) and `processed` (issue 21).
 * - donation_screenings, donation_test_results: one row per donation, what staff recorded.
 * - deferrals: temporary (until a date, the first day the donor may donate again) or permanent.
 * - Rewards are credited at collection and shown once: game_rewards and earned_achievements get
 *   seen_at. Rewards given to bookings under the old rule (on submit) are taken back; what was
 *   already rewarded is marked seen.
 * - Levels grow (level n spans 100 x n points): every profile's level is recomputed from its points.
 * - The new tables are counted in change_counters like the others.
 *
 * SQLite cannot change a CHECK constraint in place: donations and blood_units are rebuilt from their
 * own schema text with the constraint edited, their indexes and triggers recreated (the procedure of
 * https://www.sqlite.org/lang_altertable.html#otheralter), with foreign keys off while it runs.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

const NEW_TABLES = ['deferrals', 'donation_screenings', 'donation_test_results'] as const;

const OLD_DONATION_CHECK = `status in ('pending', 'approved', 'rejected')`;
const NEW_DONATION_CHECK = `status in ('pending', 'cancelled', 'rejected', 'deferred', 'collected', 'released', 'discarded')`;
const OLD_UNIT_CHECK = `status in ('available', 'issued', 'discarded')`;
const NEW_UNIT_CHECK = `status in ('quarantined', 'available', 'issued', 'discarded', 'processed')`;
const HOLD_CHECK = `(status = 'quarantined') = (hold_reason is not null) and (hold_reason is null or hold_reason in ('testing', 'lookback'))`;

export async function up(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  // Rewards: credited at collection now. A booking rewarded on submit (old rule) gives it back.
  await db.schema.alterTable('game_rewards').addColumn('seen_at', 'text').execute();
  await db.schema.alterTable('earned_achievements').addColumn('seen_at', 'text').execute();
  await db
    .deleteFrom('game_rewards')
    .where('donation_id', 'in', db.selectFrom('donations').select('id').where('status', '!=', 'approved'))
    .execute();
  await sql`update game_rewards set seen_at = rewarded_at`.execute(db);
  await sql`update earned_achievements set seen_at = earned_at`.execute(db);

  // Approved donations become released (on the way through the widened check).
  if (isPostgres) await widenChecksOnPostgres(db);
  else await widenChecksOnSqlite(db);
  // A released donation's collection day is its booked day (the old approval collected on it).
  await sql`update donations set collected_on = donation_date where status = 'released'`.execute(db);

  await createLifecycleTables(db, isPostgres);
  await recomputeLevels(db);
  for (const table of NEW_TABLES) await countChangesOf(db, table, isPostgres);
}

async function widenChecksOnPostgres(db: AnyDb): Promise<void> {
  await sql`alter table donations drop constraint donations_status_check`.execute(db);
  await sql`update donations set status = 'released' where status = 'approved'`.execute(db);
  await sql`alter table donations add constraint donations_status_check check (${sql.raw(NEW_DONATION_CHECK)})`.execute(db);
  await db.schema.alterTable('donations').addColumn('collected_on', 'text').execute();
  await db.schema.alterTable('donations').addColumn('outcome_reason', 'text').execute();

  await sql`alter table blood_units drop constraint blood_units_status_check`.execute(db);
  await sql`alter table blood_units add constraint blood_units_status_check check (${sql.raw(NEW_UNIT_CHECK)})`.execute(db);
  await db.schema.alterTable('blood_units').addColumn('hold_reason', 'text').execute();
  await sql`alter table blood_units add constraint blood_units_hold_reason check (${sql.raw(HOLD_CHECK)})`.execute(db);
}

async function widenChecksOnSqlite(db: AnyDb): Promise<void> {
  await db.schema.alterTable('donations').addColumn('collected_on', 'text').execute();
  await db.schema.alterTable('donations').addColumn('outcome_reason', 'text').execute();
  await db.schema.alterTable('blood_units').addColumn('hold_reason', 'text').execute();

  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await rebuildSqliteTable(trx, 'donations', (create) => replaceOnce(create, OLD_DONATION_CHECK, NEW_DONATION_CHECK), {
        status: `case when status = 'approved' then 'released' else status end`,
      });
      await rebuildSqliteTable(trx, 'blood_units', (create) => {
        const widened = replaceOnce(create, OLD_UNIT_CHECK, NEW_UNIT_CHECK);
        // The table's closing parenthesis: add the hold rule as a table constraint.
        const end = widened.lastIndexOf(')');
        return `${widened.slice(0, end)}, constraint "blood_units_hold_reason" check (${HOLD_CHECK}))`;
      });
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`foreign key check failed after the rebuild: ${JSON.stringify(broken.rows)}`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function createLifecycleTables(db: AnyDb, isPostgres: boolean): Promise<void> {
  const instant = 'text';
  await db.schema
    .createTable('donation_screenings')
    .addColumn('donation_id', 'integer', (col) => col.primaryKey().references('donations.id'))
    .addColumn('haemoglobin_g_dl', 'double precision', (col) => col.notNull())
    .addColumn('weight_kg', 'double precision', (col) => col.notNull())
    .addColumn('bp_systolic', 'integer', (col) => col.notNull())
    .addColumn('bp_diastolic', 'integer', (col) => col.notNull())
    .addColumn('pulse', 'integer', (col) => col.notNull())
    .addColumn('passed', 'integer', (col) => col.notNull().check(sql`passed in (0, 1)`))
    .addColumn('recorded_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('recorded_at', instant, (col) => col.notNull())
    .execute();

  const outcome = (name: string) => sql.raw(`${name} in ('negative', 'reactive')`);
  await db.schema
    .createTable('donation_test_results')
    .addColumn('donation_id', 'integer', (col) => col.primaryKey().references('donations.id'))
    .addColumn('hiv', 'text', (col) => col.notNull().check(outcome('hiv')))
    .addColumn('hbv', 'text', (col) => col.notNull().check(outcome('hbv')))
    .addColumn('hcv', 'text', (col) => col.notNull().check(outcome('hcv')))
    .addColumn('syphilis', 'text', (col) => col.notNull().check(outcome('syphilis')))
    .addColumn('bloodgroup', 'text', (col) => col.notNull())
    .addColumn('recorded_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('recorded_at', instant, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('deferrals')
    .$call((table) =>
      isPostgres
        ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
        : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement()),
    )
    .addColumn('donor_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('temporary', 'permanent')`))
    // The first day the donor may donate again; null when permanent.
    .addColumn('until', 'text')
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull().check(sql`source in ('manual', 'screening', 'test')`))
    .addColumn('donation_id', 'integer', (col) => col.references('donations.id'))
    .addColumn('created_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', instant, (col) => col.notNull())
    .addColumn('lifted_at', instant)
    .addColumn('lifted_by', 'integer', (col) => col.references('users.id'))
    .addColumn('lift_reason', 'text')
    .addCheckConstraint('deferrals_until_when_temporary', sql`(type = 'permanent') = (until is null)`)
    .addCheckConstraint('deferrals_lifted_together', sql`(lifted_at is null) = (lifted_by is null) and (lifted_at is null) = (lift_reason is null)`)
    .execute();
  await db.schema.createIndex('deferrals_donor_idx').on('deferrals').columns(['donor_id', 'id']).execute();

  // The queues of Manage Donations: bookings by date, collections awaiting results by day.
  await db.schema.createIndex('donations_status_date_idx').on('donations').columns(['status', 'donation_date', 'id']).execute();
}

/** Level n starts at 50 x n x (n - 1) points (PRODUCT.md 3.4), written out here: migrations are frozen. */
async function recomputeLevels(db: AnyDb): Promise<void> {
  const profiles = await db.selectFrom('game_profiles').select(['id', 'points', 'level']).execute();
  for (const profile of profiles as { id: number; points: number; level: number }[]) {
    let level = 1;
    while (Number(profile.points) >= 50 * level * (level + 1)) level += 1;
    if (level !== Number(profile.level)) {
      await db.updateTable('game_profiles').set({ level }).where('id', '=', profile.id).execute();
    }
  }
}

export async function down(): Promise<void> {
  throw new Error('2026-11-25-0002-donation-lifecycle cannot be undone: restore a backup taken before it instead.');
}
