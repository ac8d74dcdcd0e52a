import type { CompiledQuery, Insertable, Selectable } from 'kysely';
import type { DatabaseOrTransaction } from './database';
import type { DB } from './types';

/**
 * Inserts of one row for the hot write paths: the SQL is built and compiled once per dialect and
 * then only bound to each row's values. (Kysely builds a query's syntax tree and compiles it to
 * SQL on every call, which on SQLite costs more than the insert itself.) Every column listed is
 * bound, in that order; the row must give each of them.
 */
type Values<Table extends keyof DB & string, Column extends keyof Insertable<DB[Table]> & string> = {
  // Exactly the listed columns, each required (an absent one would bind nothing).
  [C in Column]-?: Insertable<DB[Table]>[C];
};

/** An insert that returns the row as stored (its id, its defaults). */
export function preparedInsert<
  Table extends keyof DB & string,
  Column extends keyof Insertable<DB[Table]> & string,
>(table: Table, columns: readonly Column[]) {
  type Row = Selectable<DB[Table]>;
  const run = boundInsert<Row>(columns, (db) =>
    db
      .insertInto(table)
      .values(nullsFor(columns) as unknown as Insertable<DB[Table]>)
      .returningAll()
      .compile(),
  );
  return async (db: DatabaseOrTransaction, row: Values<Table, Column>): Promise<Row> => (await run(db, row)).rows[0]!;
}

/**
 * An insert whose row nobody reads back (an activity feed entry): no RETURNING, which SQLite
 * serves through a temporary table, a few microseconds of every write.
 */
export function preparedInsertOnly<
  Table extends keyof DB & string,
  Column extends keyof Insertable<DB[Table]> & string,
>(table: Table, columns: readonly Column[]) {
  const run = boundInsert<never>(columns, (db) =>
    db
      .insertInto(table)
      .values(nullsFor(columns) as unknown as Insertable<DB[Table]>)
      .compile(),
  );
  return async (db: DatabaseOrTransaction, row: Values<Table, Column>): Promise<void> => {
    await run(db, row);
  };
}

/** Each value becomes a parameter, whatever it is: null stands in for all of them. */
const nullsFor = (columns: readonly string[]) => Object.fromEntries(columns.map((column) => [column, null]));

function boundInsert<Row>(columns: readonly string[], compile: (db: DatabaseOrTransaction) => CompiledQuery<unknown>) {
  // Keyed by the dialect's adapter: a database and its transactions share it; SQLite and
  // PostgreSQL (placeholders `?` and `$1`) each get their own SQL.
  const compiledByDialect = new WeakMap<object, CompiledQuery<Row>>();
  return (db: DatabaseOrTransaction, row: object) => {
    const dialect = db.getExecutor().adapter;
    let compiled = compiledByDialect.get(dialect);
    if (!compiled) compiledByDialect.set(dialect, (compiled = compile(db) as CompiledQuery<Row>));
    const values = row as Record<string, unknown>;
    return db.executeQuery<Row>({ ...compiled, parameters: columns.map((column) => values[column]) });
  };
}
