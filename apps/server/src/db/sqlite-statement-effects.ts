import type SQLite from 'better-sqlite3';

/** What running a statement may change, as the change watch and the log flush need to know it. */
export interface StatementEffect {
  /** It changes data, or ends a transaction that lands changes: the log needs a flush after it. */
  writes: boolean;
  /** The tables whose rows it may change; 'all' when its text does not tell. */
  tables: readonly string[] | 'all';
  /** It creates, drops or alters something: what other statements change must be told again. */
  changesSchema?: true;
}

const READS_ONLY: StatementEffect = { writes: false, tables: [] };
/** COMMIT, RELEASE, ROLLBACK: they land (or undo) changes whose tables were counted as they ran. */
const ENDS_TRANSACTION: StatementEffect = { writes: true, tables: [] };
const ENDS_TRANSACTION_SQL = /^\s*(commit|end|release|rollback)\b/i;
const CHANGES_SCHEMA_SQL = /^\s*(create|drop|alter)\b/i;
/** The table of an INSERT, UPDATE or DELETE as Kysely writes them: a bare or double-quoted name. */
const TARGET_TABLE =
  /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update\s+(?:or\s+\w+\s+)?|delete\s+from)\s*"?(\w+)"?(?=[\s(]|$)/i;

/**
 * Tells, once per SQL text (when it is prepared), which tables a statement may change: the table
 * it names, the tables whose foreign keys act on that table's deletes and updates (ON DELETE
 * CASCADE…), and theirs in turn. Anything it cannot tell for sure counts as every table: a
 * statement of another shape (DDL, a CTE, a schema-qualified name, a writing PRAGMA), or a table
 * with a trigger, which may change any other. What is told stays true until the schema changes:
 * the caller asks again after this connection's own DDL, and after another writer's commit that
 * moved the schema version (db/database.ts).
 */
/** The schema's version: SQLite moves it with every change of the schema, by any connection. */
export const schemaVersionOf = (sqlite: SQLite.Database) =>
  sqlite.pragma('schema_version', { simple: true }) as number;

export function statementEffects(sqlite: SQLite.Database) {
  let schema: { version: number; dependents: Map<string, string[]>; triggered: Set<string> } | undefined;
  const currentSchema = () => {
    const version = schemaVersionOf(sqlite);
    if (schema?.version === version) return schema;
    const dependents = new Map<string, string[]>();
    const tables = sqlite
      .prepare("select name from sqlite_schema where type = 'table'")
      .pluck()
      .all() as string[];
    for (const table of tables) {
      const keys = sqlite.pragma(`foreign_key_list(${JSON.stringify(table)})`) as {
        table: string;
        on_update: string;
        on_delete: string;
      }[];
      for (const key of keys) {
        const acts = [key.on_delete, key.on_update].some(
          (action) => action !== 'NO ACTION' && action !== 'RESTRICT',
        );
        if (!acts) continue;
        const parent = key.table.toLowerCase();
        dependents.set(parent, [...(dependents.get(parent) ?? []), table.toLowerCase()]);
      }
    }
    const triggered = new Set(
      (
        sqlite.prepare("select tbl_name from sqlite_schema where type = 'trigger'").pluck().all() as string[]
      ).map((table) => table.toLowerCase()),
    );
    schema = { version, dependents, triggered };
    return schema;
  };

  return (statement: SQLite.Statement, sqlText: string): StatementEffect => {
    if (ENDS_TRANSACTION_SQL.test(sqlText)) return ENDS_TRANSACTION;
    if (statement.readonly) return READS_ONLY;
    if (CHANGES_SCHEMA_SQL.test(sqlText)) return { writes: true, tables: 'all', changesSchema: true };
    // SQLite's names are case-insensitive: every name is compared in lower case.
    const target = TARGET_TABLE.exec(sqlText)?.[1]?.toLowerCase();
    if (!target) return { writes: true, tables: 'all' };
    const { dependents, triggered } = currentSchema();
    const reached = new Set([target]);
    for (const table of reached) for (const dependent of dependents.get(table) ?? []) reached.add(dependent);
    if ([...reached].some((table) => triggered.has(table))) return { writes: true, tables: 'all' };
    return { writes: true, tables: [...reached] };
  };
}
