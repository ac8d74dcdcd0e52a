import { PostgresAdapter, type Insertable, type QueryCreator } from 'kysely';
import type { DatabaseOrTransaction } from './handle';
import type { DB } from './types';

type Table = keyof DB & string;
/** Tables whose rows have an id the database assigns. */
export type TableWithId = { [T in Table]: DB[T] extends { id: unknown } ? T : never }[Table];

interface PendingRow {
  table: Table;
  values: Record<string, unknown>;
}

/**
 * Rows a write adds and never reads back in its own transaction (an activity feed entry, a
 * notification, a queued e-mail): a write batch (write-transactions.ts) inserts them when its works
 * are done, all at once (insertRows), instead of one statement each (on PostgreSQL a round trip
 * each, waited for on the batch's one connection). They commit or roll back
 * with the work that added them: a work that fails drops its rows with the rest of its changes.
 */
export class RowsAtCommit {
  private kept: PendingRow[] = [];
  private work: PendingRow[] | undefined;
  /** Ids the batch took from a table's sequence before its works ran, not yet given to a row. */
  private readonly reserved = new Map<TableWithId, number[]>();

  /** Ids the works may give their new rows in `table` (addRowWithId). */
  reserveIds(table: TableWithId, ids: readonly number[]): void {
    this.reserved.set(table, [...(this.reserved.get(table) ?? []), ...ids]);
  }
  /** A reserved id of `table`, or undefined when none is left. */
  takeReservedId(table: TableWithId): number | undefined {
    return this.reserved.get(table)?.shift();
  }

  /** Rows added from now on belong to a new work. */
  beginWork(): void {
    this.work = [];
  }
  /** The work succeeded: its rows are inserted with the batch's. */
  keepWork(): void {
    if (this.work) this.kept.push(...this.work);
    this.work = undefined;
  }
  /** The work failed: its rows are forgotten. */
  dropWork(): void {
    this.work = undefined;
  }
  /** The work's rows, to insert now (inside its own savepoint). */
  takeWork(): PendingRow[] {
    const rows = this.work ?? [];
    this.work = undefined;
    return rows;
  }
  /** Every kept row, to insert at the end of the batch. */
  takeKept(): PendingRow[] {
    const rows = this.kept;
    this.kept = [];
    return rows;
  }

  add(row: PendingRow): boolean {
    if (!this.work) return false;
    this.work.push(row);
    return true;
  }
}

// A batch's transaction and the rows its works added: only the write path registers one.
const collectors = new WeakMap<object, RowsAtCommit>();

/** Registers the rows a batch's transaction will insert at its end (write-transactions.ts). */
export function collectRowsOf(trx: DatabaseOrTransaction): RowsAtCommit {
  const rows = new RowsAtCommit();
  collectors.set(trx, rows);
  return rows;
}

/**
 * Inserts a row that nothing reads back in the same write: at the end of the write batch when `db`
 * is a batch's transaction, otherwise at once (a command-line tool, a test's own transaction).
 * Nothing in the same work can see the row before the batch ends, so nothing there may look for it.
 */
export async function insertAtCommit<T extends Table>(db: DatabaseOrTransaction, table: T, values: Insertable<DB[T]>): Promise<void> {
  const row = { table, values: values as Record<string, unknown> };
  if (collectors.get(db)?.add(row)) return;
  await insertRows(db, [row]);
}

/**
 * Adds a row the work needs the id of, but does not read back: with an id its batch reserved
 * (PostgreSQL's adding-only batches take one per work from the table's sequence, with their first
 * statement; write-transactions.ts) it is inserted at the end of the batch like insertAtCommit, so
 * the work costs no round trip of its own; otherwise `insertNow` inserts it and answers its id.
 *
 * The id is for the work's answer only. Until the batch ends no row has it on PostgreSQL, so nothing
 * in the batch may read the row or name the id in a foreign key, not even a row added with
 * insertAtCommit (on SQLite, where the row is inserted at once, that would work, and the engines
 * would differ).
 */
export async function addRowWithId<T extends TableWithId, Row extends Omit<Insertable<DB[T]>, 'id'>>(
  db: DatabaseOrTransaction,
  table: T,
  values: Row,
  insertNow: (db: DatabaseOrTransaction, values: Row) => Promise<number>,
): Promise<number> {
  const rows = collectors.get(db);
  const id = rows?.takeReservedId(table);
  if (id === undefined || !rows!.add({ table, values: { ...values, id } })) return insertNow(db, values);
  return id;
}

/** At most this many rows per insert statement: well within both engines' limits on parameters. */
const ROWS_PER_STATEMENT = 500;

/** PostgreSQL's limit is 65,535 parameters a statement; the inserts joined into one stay well under it. */
const PARAMETERS_PER_STATEMENT = 20_000;

/**
 * Inserts the rows, one insert per table and set of columns (in the order they were added). On
 * PostgreSQL the inserts go in one statement (each but the last a data-modifying WITH query), one
 * round trip for the whole batch's rows (several past PARAMETERS_PER_STATEMENT).
 */
export async function insertRows(db: DatabaseOrTransaction, rows: readonly PendingRow[]): Promise<void> {
  const groups = new Map<string, PendingRow[]>();
  for (const row of rows) {
    const key = `${row.table}(${Object.keys(row.values).join(',')})`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  const inserts: PendingRow[][] = [];
  for (const group of groups.values())
    for (let start = 0; start < group.length; start += ROWS_PER_STATEMENT) inserts.push(group.slice(start, start + ROWS_PER_STATEMENT));
  const insertOf = (creator: QueryCreator<DB>, chunk: readonly PendingRow[]) =>
    creator.insertInto(chunk[0]!.table).values(chunk.map((row) => row.values) as never);
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    for (const chunk of inserts) await insertOf(db, chunk).execute();
    return;
  }
  const parametersOf = (chunk: readonly PendingRow[]) => chunk.length * Object.keys(chunk[0]!.values).length;
  for (let first = 0; first < inserts.length; ) {
    let last = first;
    let parameters = parametersOf(inserts[first]!);
    while (last + 1 < inserts.length && parameters + parametersOf(inserts[last + 1]!) <= PARAMETERS_PER_STATEMENT)
      parameters += parametersOf(inserts[++last]!);
    let creator: QueryCreator<DB> = db;
    for (let index = first; index < last; index++)
      creator = creator.with(`added_${index - first}`, (inner) => insertOf(inner, inserts[index]!) as never) as unknown as QueryCreator<DB>;
    await insertOf(creator, inserts[last]!).execute();
    first = last + 1;
  }
}
