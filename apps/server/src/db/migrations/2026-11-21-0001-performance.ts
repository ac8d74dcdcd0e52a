import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * What the benchmark (bench/, issue 8) showed the hot reads need at scale. Frozen once shipped.
 *
 * 1. blood_stock: how many AVAILABLE units each group has per expiry date, kept in step with
 *    blood_units by triggers, so in the same transaction as every change of a unit, whichever code
 *    (or tool) makes it. Stock = sum over expiry dates from today on: a few hundred rows at most
 *    (8 groups × 42 days of shelf life, plus expired bags awaiting discard), instead of counting
 *    every usable bag on every GET /api/stock. Rows that reach 0 are deleted.
 * 2. change_versions: a counter per table that only ever grows, bumped by triggers on every change
 *    of users, donations, blood_requests, blood_units and game_profiles. A result computed after
 *    reading the sum of the counters is still current as long as the sum has not moved; that lets
 *    the stock, the admin dashboard (12 weeks of weekly counts), the admin lists and the
 *    leaderboard be reused between changes, exactly, on any number of instances. PostgreSQL spreads each table's counter over 16 rows picked at random, so
 *    concurrent writers rarely wait on one another's counter row; SQLite has one writer at a time.
 * 3. Indexes for what the hot reads ask: admin lists filtered by status, newest first; a donor's
 *    donations by status and date; active users by role (dashboard counts); a donor's earned
 *    achievements in the order shown.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

const VERSIONED_TABLES = ['users', 'donations', 'blood_requests', 'blood_units', 'game_profiles'] as const;
const SHARDS = 16;

export async function up(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  // ---- 1. stock counters
  await db.schema
    .createTable('blood_stock')
    .addColumn('bloodgroup', 'text', (col) => col.notNull())
    .addColumn('expires_on', 'text', (col) => col.notNull())
    .addColumn('units', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('blood_stock_pk', ['bloodgroup', 'expires_on'])
    // SQLite: the rows live in the primary key's b-tree, so a group's dates are read in order with their counts.
    .$call((table) => (isPostgres ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
  await sql`
    insert into blood_stock (bloodgroup, expires_on, units)
    select bloodgroup, expires_on, count(*) from blood_units where status = 'available' group by bloodgroup, expires_on
  `.execute(db);

  if (isPostgres) {
    await sql`
      create function track_blood_stock() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.status = 'available' then
          update blood_stock set units = units - 1 where bloodgroup = old.bloodgroup and expires_on = old.expires_on;
          delete from blood_stock where bloodgroup = old.bloodgroup and expires_on = old.expires_on and units = 0;
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.status = 'available' then
          insert into blood_stock (bloodgroup, expires_on, units) values (new.bloodgroup, new.expires_on, 1)
          on conflict (bloodgroup, expires_on) do update set units = blood_stock.units + 1;
        end if;
        return null;
      end $$
    `.execute(db);
    await sql`
      create trigger blood_units_track_stock
      after insert or delete or update of status, bloodgroup, expires_on on blood_units
      for each row execute function track_blood_stock()
    `.execute(db);
    // TRUNCATE fires no row trigger: emptying the units empties their counts.
    await sql`
      create function clear_blood_stock() returns trigger language plpgsql as $$
      begin
        delete from blood_stock;
        return null;
      end $$
    `.execute(db);
    await sql`
      create trigger blood_units_clear_stock after truncate on blood_units
      for each statement execute function clear_blood_stock()
    `.execute(db);
  } else {
    const addNew = sql`
      insert into blood_stock (bloodgroup, expires_on, units) select new.bloodgroup, new.expires_on, 1
      where new.status = 'available'
      on conflict (bloodgroup, expires_on) do update set units = units + 1;`;
    const removeOld = sql`
      update blood_stock set units = units - 1
      where old.status = 'available' and bloodgroup = old.bloodgroup and expires_on = old.expires_on;
      delete from blood_stock
      where old.status = 'available' and bloodgroup = old.bloodgroup and expires_on = old.expires_on and units = 0;`;
    await sql`create trigger blood_units_stock_insert after insert on blood_units begin ${addNew} end`.execute(
      db,
    );
    await sql`
      create trigger blood_units_stock_update after update of status, bloodgroup, expires_on on blood_units
      when old.status = 'available' or new.status = 'available'
      begin ${removeOld} ${addNew} end`.execute(db);
    await sql`create trigger blood_units_stock_delete after delete on blood_units begin ${removeOld} end`.execute(
      db,
    );
  }

  // ---- 2. change versions
  await db.schema
    .createTable('change_versions')
    .addColumn('table_name', 'text', (col) => col.notNull())
    .addColumn('shard', 'integer', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('change_versions_pk', ['table_name', 'shard'])
    .$call((table) => (isPostgres ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
  await db
    .insertInto('change_versions')
    .values(
      VERSIONED_TABLES.flatMap((table) =>
        Array.from({ length: SHARDS }, (_, shard) => ({ table_name: table, shard, version: 0 })),
      ),
    )
    .execute();
  if (isPostgres) {
    await sql`
      create function bump_change_version() returns trigger language plpgsql as $$
      declare
        -- Drawn once: random() in the WHERE clause would be drawn again for every row it tests.
        chosen integer := floor(random() * ${sql.lit(SHARDS)})::integer;
      begin
        update change_versions set version = version + 1 where table_name = tg_table_name and shard = chosen;
        return null;
      end $$
    `.execute(db);
    for (const table of VERSIONED_TABLES) {
      await sql`
        create trigger ${sql.raw(`${table}_bump_change_version`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function bump_change_version()
      `.execute(db);
    }
  } else {
    for (const table of VERSIONED_TABLES) {
      for (const event of ['insert', 'update', 'delete']) {
        await sql`
          create trigger ${sql.raw(`${table}_${event}_bump_change_version`)} after ${sql.raw(event)} on ${sql.table(table)}
          begin
            update change_versions set version = version + 1 where table_name = ${sql.lit(table)} and shard = 0;
          end`.execute(db);
      }
    }
  }

  // ---- 3. indexes
  await db.schema
    .createIndex('requests_status_created_idx')
    .on('blood_requests')
    .columns(['status', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('donations_status_created_idx')
    .on('donations')
    .columns(['status', 'created_at', 'id'])
    .execute();
  // A donor's counts by status and last approved date (donor summary, donation eligibility), read
  // from the index alone; without it, a database with no planner statistics reads every approved donation.
  await db.schema
    .createIndex('donations_donor_status_date_idx')
    .on('donations')
    .columns(['donor_id', 'status', 'donation_date'])
    .execute();
  await db.schema
    .createIndex('users_active_role_idx')
    .on('users')
    .column('role')
    .where(sql.ref('is_active'), '=', 1)
    .execute();
  await db.schema
    .createIndex('earned_achievements_donor_order_idx')
    .on('earned_achievements')
    .columns(['donor_id', 'earned_at', 'achievement_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const index of [
    'earned_achievements_donor_order_idx',
    'users_active_role_idx',
    'donations_donor_status_date_idx',
    'donations_status_created_idx',
    'requests_status_created_idx',
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  if (isPostgres) {
    for (const table of VERSIONED_TABLES) {
      await sql`drop trigger if exists ${sql.raw(`${table}_bump_change_version`)} on ${sql.table(table)}`.execute(
        db,
      );
    }
    await sql`drop trigger if exists blood_units_track_stock on blood_units`.execute(db);
    await sql`drop trigger if exists blood_units_clear_stock on blood_units`.execute(db);
    await sql`drop function if exists clear_blood_stock()`.execute(db);
    await sql`drop function if exists bump_change_version()`.execute(db);
    await sql`drop function if exists track_blood_stock()`.execute(db);
  } else {
    for (const table of VERSIONED_TABLES) {
      for (const event of ['insert', 'update', 'delete']) {
        await sql`drop trigger if exists ${sql.raw(`${table}_${event}_bump_change_version`)}`.execute(db);
      }
    }
    for (const trigger of [
      'blood_units_stock_insert',
      'blood_units_stock_update',
      'blood_units_stock_delete',
    ]) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
  }
  await db.schema.dropTable('change_versions').ifExists().execute();
  await db.schema.dropTable('blood_stock').ifExists().execute();
}
