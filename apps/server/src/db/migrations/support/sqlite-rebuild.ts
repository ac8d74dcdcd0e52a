import { type Kysely, sql } from 'kysely';

/**
 * SQLite cannot change a CHECK constraint in place: a table is rebuilt from its own schema text with
 * the constraint edited, its indexes and triggers recreated (the procedure of
 * https://www.sqlite.org/lang_altertable.html#otheralter). Run with foreign keys off, inside a
 * transaction. Shared by migrations; changing it changes every migration that uses it, so don't.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

export function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`expected exactly one "${from}" in: ${text}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** A SQLite table recreated from its schema text, edited; rows, indexes and triggers kept. */
export async function rebuildSqliteTable(
  db: AnyDb,
  table: string,
  edit: (createSql: string) => string,
  /** Columns copied through an expression rather than as they are. */
  copiedAs: Record<string, string> = {},
): Promise<void> {
  const schema = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = ${table}
  `.execute(db);
  const create = schema.rows.find((row) => row.type === 'table')?.sql;
  if (!create) throw new Error(`no table ${table}`);
  const dependents = schema.rows.filter((row) => row.type !== 'table' && row.sql !== null).map((row) => row.sql!);
  const temporary = `${table}_rebuilt`;
  const edited = edit(create).replace(/^CREATE TABLE\s+("?)[A-Za-z_]+\1/i, `CREATE TABLE "${temporary}"`);
  await sql.raw(edited).execute(db);
  const columns = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  const names = columns.rows.map((column) => column.name);
  const list = names.map((name) => `"${name}"`).join(', ');
  const values = names.map((name) => copiedAs[name] ?? `"${name}"`).join(', ');
  await sql.raw(`insert into "${temporary}" (${list}) select ${values} from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${temporary}" rename to "${table}"`).execute(db);
  for (const statement of dependents) await sql.raw(statement).execute(db);
}
