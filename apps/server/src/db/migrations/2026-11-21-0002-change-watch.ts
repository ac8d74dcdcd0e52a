import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * What tells a reused answer that the data behind it changed (db/change-versions.ts), reworked.
 * Frozen once shipped.
 *
 * - SQLite: the counters go. SQLite's own data_version moves with every commit from any connection
 *   or process, which is what the cache needs, and costs the writes nothing.
 * - PostgreSQL: change_versions (a row per table and shard, the shard drawn at random per
 *   statement) let two transactions lock the counter rows of two tables in opposite orders and
 *   deadlock. change_counters has one row per shard and a column per table; a transaction always
 *   bumps the row of its own shard (its transaction id modulo 16), so it holds at most one counter
 *   lock, and the app takes it first thing in each write transaction (db/write-transactions.ts),
 *   before any lock on data. It also counts the tables the per-user answers read:
 *   earned_achievements, game_rewards and activities.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

const OLD_TABLES = ['users', 'donations', 'blood_requests', 'blood_units', 'game_profiles'] as const;
const COUNTED_TABLES = [...OLD_TABLES, 'earned_achievements', 'game_rewards', 'activities'] as const;
const SHARDS = 16;

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    for (const table of OLD_TABLES) {
      for (const event of ['insert', 'update', 'delete']) {
        await sql`drop trigger if exists ${sql.raw(`${table}_${event}_bump_change_version`)}`.execute(db);
      }
    }
    await db.schema.dropTable('change_versions').execute();
    return;
  }

  for (const table of OLD_TABLES) {
    await sql`drop trigger if exists ${sql.raw(`${table}_bump_change_version`)} on ${sql.table(table)}`.execute(
      db,
    );
  }
  await sql`drop function if exists bump_change_version()`.execute(db);
  await db.schema.dropTable('change_versions').execute();

  await db.schema
    .createTable('change_counters')
    .addColumn('shard', 'integer', (col) => col.primaryKey())
    .$call((table) =>
      COUNTED_TABLES.reduce(
        (builder, name) => builder.addColumn(name, 'bigint', (col) => col.notNull().defaultTo(0)),
        table,
      ),
    )
    .execute();
  await db
    .insertInto('change_counters')
    .values(Array.from({ length: SHARDS }, (_, shard) => ({ shard })))
    .execute();
  await sql`
    create function bump_change_counter() returns trigger language plpgsql as $$
    begin
      execute format('update change_counters set %1$I = %1$I + 1 where shard = $1', tg_table_name)
        using (txid_current() % ${sql.lit(SHARDS)})::integer;
      return null;
    end $$
  `.execute(db);
  for (const table of COUNTED_TABLES) {
    await sql`
      create trigger ${sql.raw(`${table}_bump_change_counter`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function bump_change_counter()
    `.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('2026-11-21-0002-change-watch cannot be undone: restore a backup taken before it instead.');
}
