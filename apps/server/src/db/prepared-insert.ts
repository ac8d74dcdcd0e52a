import { sql, SqliteAdapter, type CompiledQuery, type Insertable } from 'kysely';
import type { DatabaseOrTransaction } from './database';
import type { TableWithId } from './rows-at-commit';
import type { DB } from './types';

/** Exactly the listed columns, each required (an absent one would bind nothing). */
type Values<Table extends keyof DB & string, Column extends keyof Insertable<DB[Table]> & string> = {
  [C in Column]-?: Insertable<DB[Table]>[C];
};


/**
 * An insert of one row that resolves to the id the database gave it, for the hot write paths. The
 * SQL is built and compiled once per dialect and then only bound to each row's values (Kysely
 * builds a query's syntax tree and compiles it to SQL on every call, which on SQLite costs more
 * than the insert itself), and run through Kysely. Every column listed is bound, in that order;
 * the row must give each of them. The caller has every other column's value already, so the row
 * is not read back: the id is, on SQLite, the connection's last insert rowid, which Kysely reports
 * (RETURNING runs through a temporary table there and builds a JavaScript object column by column,
 * a good part of what the insert costs); on PostgreSQL `returning id`.
 */
export function preparedInsert<
  Table extends TableWithId,
  Column extends keyof Insertable<DB[Table]> & string,
>(table: Table, columns: readonly Column[]) {
  interface Compiled {
    plain: CompiledQuery;
    returningId: CompiledQuery<{ id: number }> | undefined;
  }
  // Keyed by the dialect's adapter: a database and its transactions share it; SQLite and
  // PostgreSQL (placeholders `?` and `$1`) each get their own SQL.
  const compiledByDialect = new WeakMap<object, Compiled>();
  const compile = (db: DatabaseOrTransaction): Compiled => {
    // Each value becomes a parameter, whatever it is: null stands in for all of them.
    const placeholders = Object.fromEntries(columns.map((column) => [column, null]));
    const insert = db.insertInto(table).values(placeholders as never);
    return {
      plain: insert.compile(),
      returningId:
        db.getExecutor().adapter instanceof SqliteAdapter
          ? undefined
          : (insert.returning(sql.ref('id') as never).compile() as unknown as CompiledQuery<{ id: number }>),
    };
  };
  return async (db: DatabaseOrTransaction, row: Values<Table, Column>): Promise<number> => {
    const dialect = db.getExecutor().adapter;
    let compiled = compiledByDialect.get(dialect);
    if (!compiled) compiledByDialect.set(dialect, (compiled = compile(db)));
    const parameters = columns.map((column) => row[column]);
    if (compiled.returningId) {
      const result = await db.executeQuery<{ id: number }>({ ...compiled.returningId, parameters });
      return result.rows[0]!.id;
    }
    const result = await db.executeQuery({ ...compiled.plain, parameters });
    // Otherwise the insert id would still name the previous insert's row.
    if (result.numAffectedRows !== 1n) throw new Error(`Insert into ${table} added ${String(result.numAffectedRows)} rows, not one`);
    return Number(result.insertId);
  };
}
