import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Blood components (PRODUCT.md 3.3, 3.5; issue 21; docs/decisions/0008). Frozen once shipped.
 *
 * - blood_units.component: whole_blood, red_cells, plasma or platelets. Units stored before this
 *   were collected with a 42-day shelf life, the red-cell one: they become red cells, their expiry
 *   unchanged. parent_unit_id: the whole-blood unit a component was separated from.
 * - blood_requests.component: what the patient needs; earlier requests asked for red cells.
 * - blood_stock counts available units per group, component and expiry date (was: per group and
 *   expiry), kept by triggers that now also follow a unit's component.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

const COMPONENT_CHECK = (column: string) =>
  sql.raw(`${column} in ('whole_blood', 'red_cells', 'plasma', 'platelets')`);

export async function up(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .alterTable('blood_units')
    .addColumn('component', 'text', (col) => col.notNull().defaultTo('red_cells').check(COMPONENT_CHECK('component')))
    .execute();
  await db.schema
    .alterTable('blood_units')
    .addColumn('parent_unit_id', 'integer', (col) => col.references('blood_units.id'))
    .execute();
  await db.schema
    .alterTable('blood_requests')
    .addColumn('component', 'text', (col) => col.notNull().defaultTo('red_cells').check(COMPONENT_CHECK('component')))
    .execute();

  // First-expiring-first per group and component (issuing, discarding a count).
  await db.schema
    .createIndex('units_group_component_status_expiry_idx')
    .on('blood_units')
    .columns(['bloodgroup', 'component', 'status', 'expires_on'])
    .execute();
  await db.schema.createIndex('units_parent_idx').on('blood_units').column('parent_unit_id').execute();

  // ---- blood_stock by component: the old table and its triggers go, the new ones come.
  if (isPostgres) {
    await sql`drop trigger blood_units_track_stock on blood_units`.execute(db);
    await sql`drop function track_blood_stock()`.execute(db);
  } else {
    for (const trigger of ['blood_units_stock_insert', 'blood_units_stock_update', 'blood_units_stock_delete']) {
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
  }
  await db.schema.dropTable('blood_stock').execute();
  await db.schema
    .createTable('blood_stock')
    .addColumn('bloodgroup', 'text', (col) => col.notNull())
    .addColumn('component', 'text', (col) => col.notNull())
    .addColumn('expires_on', 'text', (col) => col.notNull())
    .addColumn('units', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('blood_stock_pk', ['bloodgroup', 'component', 'expires_on'])
    .$call((table) => (isPostgres ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
  await sql`
    insert into blood_stock (bloodgroup, component, expires_on, units)
    select bloodgroup, component, expires_on, count(*) from blood_units where status = 'available'
    group by bloodgroup, component, expires_on
  `.execute(db);

  if (isPostgres) {
    await sql`
      create function track_blood_stock() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.status = 'available' then
          update blood_stock set units = units - 1
          where bloodgroup = old.bloodgroup and component = old.component and expires_on = old.expires_on;
          delete from blood_stock
          where bloodgroup = old.bloodgroup and component = old.component and expires_on = old.expires_on and units = 0;
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.status = 'available' then
          insert into blood_stock (bloodgroup, component, expires_on, units) values (new.bloodgroup, new.component, new.expires_on, 1)
          on conflict (bloodgroup, component, expires_on) do update set units = blood_stock.units + 1;
        end if;
        return null;
      end $$
    `.execute(db);
    await sql`
      create trigger blood_units_track_stock
      after insert or delete or update of status, bloodgroup, component, expires_on on blood_units
      for each row execute function track_blood_stock()
    `.execute(db);
    return;
  }
  const addNew = sql`
    insert into blood_stock (bloodgroup, component, expires_on, units) select new.bloodgroup, new.component, new.expires_on, 1
    where new.status = 'available'
    on conflict (bloodgroup, component, expires_on) do update set units = units + 1;`;
  const removeOld = sql`
    update blood_stock set units = units - 1
    where old.status = 'available' and bloodgroup = old.bloodgroup and component = old.component and expires_on = old.expires_on;
    delete from blood_stock
    where old.status = 'available' and bloodgroup = old.bloodgroup and component = old.component
      and expires_on = old.expires_on and units = 0;`;
  await sql`create trigger blood_units_stock_insert after insert on blood_units begin ${addNew} end`.execute(db);
  await sql`
    create trigger blood_units_stock_update after update of status, bloodgroup, component, expires_on on blood_units
    when old.status = 'available' or new.status = 'available'
    begin ${removeOld} ${addNew} end`.execute(db);
  await sql`create trigger blood_units_stock_delete after delete on blood_units begin ${removeOld} end`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('2026-11-25-0003-blood-components cannot be undone: restore a backup taken before it instead.');
}
