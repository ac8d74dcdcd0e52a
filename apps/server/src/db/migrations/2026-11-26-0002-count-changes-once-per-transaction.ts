import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: a transaction bumps each table's change counter once, not once per statement. Frozen
 * once shipped.
 *
 * A reused answer only needs its tables' counters to move at least once for every commit that
 * changed them (db/change-versions.ts). bump_change_counter() (2026-11-21-0002) updated the
 * transaction's counter row after every statement: a write batch of fifty requests updated the
 * same row a hundred times in one transaction, each update a new version of the row that the next
 * one, and every read of the counters, had to step through. It now remembers in a setting local to
 * the transaction (rolled back with a savepoint, like the update) which tables it has counted.
 * SQLite keeps its triggers: there an update of the counter row is a few microseconds in process.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

const SHARDS = 16;

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create or replace function bump_change_counter() returns trigger language plpgsql as $$
    declare
      counted constant text := 'bloodbank_counted.' || tg_table_name;
    begin
      if current_setting(counted, true) = 'yes' then
        return null;
      end if;
      perform set_config(counted, 'yes', true);
      execute format('update change_counters set %1$I = %1$I + 1 where shard = $1', tg_table_name)
        using (txid_current() % ${sql.lit(SHARDS)})::integer;
      return null;
    end $$
  `.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create or replace function bump_change_counter() returns trigger language plpgsql as $$
    begin
      execute format('update change_counters set %1$I = %1$I + 1 where shard = $1', tg_table_name)
        using (txid_current() % ${sql.lit(SHARDS)})::integer;
      return null;
    end $$
  `.execute(db);
}
