import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * One way of seeing changes on both engines (issue 19, db/change-versions.ts): counters bumped by
 * triggers in the same transaction as every change of a counted table, read once per turn of the
 * event loop. Frozen once shipped.
 *
 * - SQLite gets change_counters too (one row: SQLite has one writer at a time, so there is no lock
 *   to spread), bumped by a trigger per table and event. It replaces reading SQLite's data_version
 *   and parsing each statement's SQL for the tables it changes.
 * - Both engines also count the tables the reused answers read and were not counted yet:
 *   patients, achievements and audit_log.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

const COUNTED_BEFORE = [
  'users',
  'donations',
  'blood_requests',
  'blood_units',
  'game_profiles',
  'earned_achievements',
  'game_rewards',
  'activities',
] as const;
const ADDED = ['patients', 'achievements', 'audit_log'] as const;

export async function up(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of ADDED) {
      await db.schema
        .alterTable('change_counters')
        .addColumn(table, 'bigint', (col) => col.notNull().defaultTo(0))
        .execute();
      // The function of migration 2026-11-21-0002 bumps the column named after the trigger's table.
      await sql`
        create trigger ${sql.raw(`${table}_bump_change_counter`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function bump_change_counter()
      `.execute(db);
    }
    return;
  }

  const counted = [...COUNTED_BEFORE, ...ADDED];
  await db.schema
    .createTable('change_counters')
    .addColumn('shard', 'integer', (col) => col.primaryKey())
    .$call((table) =>
      counted.reduce((builder, name) => builder.addColumn(name, 'integer', (col) => col.notNull().defaultTo(0)), table),
    )
    .execute();
  await db.insertInto('change_counters').values({ shard: 0 }).execute();
  for (const table of counted) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`
        create trigger ${sql.raw(`${table}_${event}_bump_change_counter`)}
        after ${sql.raw(event)} on ${sql.table(table)}
        begin
          update change_counters set ${sql.ref(table)} = ${sql.ref(table)} + 1 where shard = 0;
        end
      `.execute(db);
    }
  }
}

export async function down(): Promise<void> {
  throw new Error('2026-11-25-0001-change-counters-everywhere cannot be undone: restore a backup taken before it instead.');
}
