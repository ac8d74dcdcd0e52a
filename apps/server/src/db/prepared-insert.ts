import type { CompiledQuery, Insertable, Selectable } from 'kysely';
import type { DatabaseOrTransaction } from './database';
import type { DB } from './types';
import { connectionStatementsOf } from './write-transactions';

/** Exactly the listed columns, each required (an absent one would bind nothing). */
type Values<Table extends keyof DB & string, Column extends keyof Insertable<DB[Table]> & string> = {
  [C in Column]-?: Insertable<DB[Table]>[C];
};

/** An insert of one row that returns the row as stored (its id, its defaults). */
export function preparedInsert<
  Table extends keyof DB & string,
  Column extends keyof Insertable<DB[Table]> & string,
>(table: Table, columns: readonly Column[]) {
  const insert = compiledOnce(table, columns, { returning: true });
  return async (db: DatabaseOrTransaction, row: Values<Table, Column>): Promise<Selectable<DB[Table]>> =>
    (await insert(db, row))!;
}

/**
 * An insert of one row that nobody reads back (an activity feed entry): no RETURNING, which
 * SQLite serves through a temporary table, a few microseconds of every write.
 */
export function preparedInsertOnly<
  Table extends keyof DB & string,
  Column extends keyof Insertable<DB[Table]> & string,
>(table: Table, columns: readonly Column[]) {
  const insert = compiledOnce(table, columns, { returning: false });
  return async (db: DatabaseOrTransaction, row: Values<Table, Column>): Promise<void> => {
    await insert(db, row);
  };
}

/**
 * The hot write paths' inserts: the SQL is built and compiled once per dialect and then only
 * bound to each row's values. (Kysely builds a query's syntax tree and compiles it to SQL on every
 * call, which on SQLite costs more than the insert itself.) Every column listed is bound, in that
 * order; the row must give each of them. Inside a SQLite write batch the statement runs straight on
 * the connection (db/write-transactions.ts); elsewhere through Kysely. Resolves to the row as
 * stored with `returning`, to undefined without.
 */
function compiledOnce<Table extends keyof DB & string>(
  table: Table,
  columns: readonly string[],
  { returning }: { returning: boolean },
) {
  type Row = Selectable<DB[Table]>;
  // Keyed by the dialect's adapter: a database and its transactions share it; SQLite and
  // PostgreSQL (placeholders `?` and `$1`) each get their own SQL.
  const compiledByDialect = new WeakMap<object, CompiledQuery<Row>>();
  const compile = (db: DatabaseOrTransaction) => {
    // Each value becomes a parameter, whatever it is: null stands in for all of them.
    const placeholders = Object.fromEntries(columns.map((column) => [column, null]));
    const insert = db.insertInto(table).values(placeholders as unknown as Insertable<DB[Table]>);
    return (returning ? insert.returningAll() : insert).compile() as unknown as CompiledQuery<Row>;
  };
  return async (db: DatabaseOrTransaction, row: object): Promise<Row | undefined> => {
    const dialect = db.getExecutor().adapter;
    let compiled = compiledByDialect.get(dialect);
    if (!compiled) compiledByDialect.set(dialect, (compiled = compile(db)));
    const values = row as Record<string, unknown>;
    const parameters = columns.map((column) => values[column]);
    const connection = connectionStatementsOf(db);
    if (connection) {
      if (returning) return connection.get(compiled.sql, parameters) as Row;
      connection.run(compiled.sql, parameters);
      return undefined;
    }
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows[0];
  };
}
