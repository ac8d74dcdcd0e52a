import type { CompiledQuery, Insertable, Selectable } from 'kysely';
import type { DatabaseOrTransaction } from './database';
import type { DB } from './types';

/**
 * An insert of one row that returns the row, for the hot write paths: its SQL is built and
 * compiled once per dialect and then only bound to each row's values. (Kysely builds a query's
 * syntax tree and compiles it to SQL on every call, which on SQLite costs more than the insert
 * itself.) Every column listed is bound, in that order; the row must give each of them.
 */
export function preparedInsert<
  Table extends keyof DB & string,
  Column extends keyof Insertable<DB[Table]> & string,
>(table: Table, columns: readonly Column[]) {
  type Row = Selectable<DB[Table]>;
  /** Exactly the listed columns, each required (an absent one would bind nothing). */
  type Values = { [C in Column]-?: Insertable<DB[Table]>[C] };
  // Keyed by the dialect's adapter: a database and its transactions share it; SQLite and
  // PostgreSQL (placeholders `?` and `$1`) each get their own SQL.
  const compiledByDialect = new WeakMap<object, CompiledQuery<Row>>();
  const compile = (db: DatabaseOrTransaction) => {
    // Each value becomes a parameter, whatever it is: null stands in for all of them.
    const placeholders = Object.fromEntries(columns.map((column) => [column, null]));
    return db
      .insertInto(table)
      .values(placeholders as unknown as Insertable<DB[Table]>)
      .returningAll()
      .compile() as unknown as CompiledQuery<Row>;
  };
  return async (db: DatabaseOrTransaction, row: Values): Promise<Row> => {
    const dialect = db.getExecutor().adapter;
    let compiled = compiledByDialect.get(dialect);
    if (!compiled) compiledByDialect.set(dialect, (compiled = compile(db)));
    const values = row as Record<string, unknown>;
    const result = await db.executeQuery<Row>({ ...compiled, parameters: columns.map((column) => values[column]) });
    return result.rows[0]!;
  };
}
