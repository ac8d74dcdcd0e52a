import { type Kysely, sql } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

/**
 * Counts every change of `table` in change_counters (the reused answers' versions,
 * db/change-versions.ts): a column for it, and triggers that bump it. Shared by the migrations that
 * add tables from 2026-11-25-0002 on; changing it changes each of them, so don't.
 */
export async function countChangesOf(db: AnyDb, table: string, isPostgres: boolean): Promise<void> {
  await db.schema
    .alterTable('change_counters')
    .addColumn(table, isPostgres ? 'bigint' : 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  if (isPostgres) {
    // The function of migration 2026-11-21-0002 bumps the column named after the trigger's table.
    await sql`
      create trigger ${sql.raw(`${table}_bump_change_counter`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function bump_change_counter()
    `.execute(db);
    return;
  }
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
