import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Reused answers per user (game state, donor and patient summaries) and the session check
 * (db/change-versions.ts). Frozen once shipped.
 *
 * - PostgreSQL: change_versions also counts the changes of earned_achievements, game_rewards and
 *   activities, which the per-user answers read, with the same statement triggers as the others.
 * - SQLite: the counters go. SQLite's own data_version moves with every commit from any connection
 *   or process, which is what the cache needs, and costs the writes nothing; the triggers made every
 *   write statement update a counter row too.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

const NEW_TABLES = ['earned_achievements', 'game_rewards', 'activities'] as const;
const OLD_TABLES = ['users', 'donations', 'blood_requests', 'blood_units', 'game_profiles'] as const;
const SHARDS = 16;

export async function up(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db
      .insertInto('change_versions')
      .values(
        NEW_TABLES.flatMap((table) =>
          Array.from({ length: SHARDS }, (_, shard) => ({ table_name: table, shard, version: 0 })),
        ),
      )
      .execute();
    for (const table of NEW_TABLES) {
      await sql`
        create trigger ${sql.raw(`${table}_bump_change_version`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function bump_change_version()
      `.execute(db);
    }
    return;
  }
  for (const table of OLD_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger if exists ${sql.raw(`${table}_${event}_bump_change_version`)}`.execute(db);
    }
  }
  await db.schema.dropTable('change_versions').execute();
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of NEW_TABLES) {
      await sql`drop trigger if exists ${sql.raw(`${table}_bump_change_version`)} on ${sql.table(table)}`.execute(
        db,
      );
    }
    await db
      .deleteFrom('change_versions')
      .where('table_name', 'in', [...NEW_TABLES])
      .execute();
    return;
  }
  await db.schema
    .createTable('change_versions')
    .addColumn('table_name', 'text', (col) => col.notNull())
    .addColumn('shard', 'integer', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('change_versions_pk', ['table_name', 'shard'])
    .modifyEnd(sql`without rowid`)
    .execute();
  await db
    .insertInto('change_versions')
    .values(OLD_TABLES.map((table) => ({ table_name: table, shard: 0, version: 0 })))
    .execute();
  for (const table of OLD_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`
        create trigger ${sql.raw(`${table}_${event}_bump_change_version`)} after ${sql.raw(event)} on ${sql.table(table)}
        begin
          update change_versions set version = version + 1 where table_name = ${sql.lit(table)} and shard = 0;
        end`.execute(db);
    }
  }
}
