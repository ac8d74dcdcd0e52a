import SQLite from 'better-sqlite3';
import { sql, type CompiledQuery } from 'kysely';
import type { Database } from './database';

/** The tables whose every change PostgreSQL counts in change_counters (migration 2026-11-21-0002). */
export type VersionedTable =
  | 'users'
  | 'donations'
  | 'blood_requests'
  | 'blood_units'
  | 'game_profiles'
  | 'earned_achievements'
  | 'game_rewards'
  | 'activities';

/**
 * "Has anything these tables hold changed since?", asked by every reused answer (VersionedCache).
 *
 * The answer is a number that never goes back and moves forward at least once for every commit
 * that changed one of the tables, made by this instance, another instance or a tool, before the
 * caller's read of it:
 * - PostgreSQL: the sum of the tables' counters in change_counters, bumped by triggers in the same
 *   transaction as every insert, update or delete of them (one read of 16 small rows, shared by
 *   the requests of a turn of the event loop).
 * - SQLite: the database's data_version, read on a connection of its own that never writes.
 *   SQLite moves it for every commit by any other connection, so from that connection's side for
 *   every commit at all: the server's own, another process's (npm run admin:create, a restore), or
 *   one typed into the sqlite3 shell. It ignores which tables a commit touched (any commit moves
 *   it), which on SQLite's single writer costs little, and it is a call into SQLite with no I/O
 *   (the write-ahead log's shared index is in memory), cheap enough for every request.
 *
 * Both engines share one read among the requests of a turn of the event loop, on the premise that
 * versionOf is called while handling requests: in the callbacks of their sockets and database
 * queries, and what those await. A call first made from a timer or a setImmediate callback would
 * share its read with requests read from the network later in the same turn; nothing does that.
 */
export interface ChangeWatch {
  versionOf(tables: readonly VersionedTable[]): number | Promise<number>;
  /** Read afresh on the next call (SQLite: called as this server writes, db/database.ts). */
  forget(): void;
  close(): void;
}

export function postgresChangeWatch(db: Database): ChangeWatch {
  const compiledByTables = new Map<string, CompiledQuery<{ version: number | string | null }>>();
  const compile = (tables: readonly VersionedTable[]) =>
    db
      .selectFrom('change_counters')
      .select(
        sql<number>`sum(${sql.join(
          tables.map((table) => sql.ref(table)),
          sql` + `,
        )})`.as('version'),
      )
      .compile();
  const read = async (key: string, tables: readonly VersionedTable[]) => {
    let compiled = compiledByTables.get(key);
    if (!compiled) compiledByTables.set(key, (compiled = compile(tables)));
    const result = await db.executeQuery(compiled);
    return Number(result.rows[0]?.version ?? 0);
  };
  // One read per set of tables per turn of the event loop, shared by every request of that turn:
  // each of them had arrived before the turn began, and the query is sent during it, so it sees
  // every commit acknowledged before any of those requests was sent (as on SQLite, below).
  const readThisTurn = new Map<string, Promise<number>>();
  const forget = () => readThisTurn.clear();
  return {
    versionOf(tables) {
      const key = tables.join(',');
      let version = readThisTurn.get(key);
      if (!version) {
        if (readThisTurn.size === 0) setImmediate(forget);
        version = read(key, tables);
        readThisTurn.set(key, version);
      }
      return version;
    },
    forget,
    close() {},
  };
}

export function sqliteChangeWatch(file: string): ChangeWatch {
  let connection: SQLite.Database | undefined;
  let statement: SQLite.Statement<[], number> | undefined;
  // data_version is only "different after another connection's commit": turned here into a
  // counter that only grows, as VersionedCache expects.
  let lastDataVersion: number | undefined;
  let generation = 0;
  // Read at most once per turn of the event loop. Every request handled in a turn had arrived
  // before the turn began, and the read is made during it, so it sees every commit acknowledged
  // before any of those requests was sent (a read may take effect at any point between its
  // request and its answer). forget() makes the next call read again: called as this server
  // writes, since a client told of the write may ask again within the same turn.
  let current: number | undefined;
  const forget = () => {
    current = undefined;
  };
  return {
    versionOf() {
      if (current !== undefined) return current;
      if (!statement) {
        // Opened on first use: the server's own connection has created the file and its WAL by then.
        connection = new SQLite(file, { readonly: true, fileMustExist: true });
        statement = connection.prepare<[], number>('pragma data_version').pluck();
      }
      const dataVersion = statement.get()!;
      if (dataVersion !== lastDataVersion) {
        lastDataVersion = dataVersion;
        generation += 1;
      }
      current = generation;
      setImmediate(forget);
      return generation;
    },
    forget,
    close() {
      connection?.close();
    },
  };
}

/** How many users' answers a per-user cache keeps (most recently used): a few MB of JSON. */
export const PER_USER_ANSWERS_KEPT = 5_000;

/**
 * A value computed from the database, reused for as long as none of the tables it reads has
 * changed, on this instance or any other (see ChangeWatch).
 *
 * Read the version, then compute: a later request that reads the same version knows nothing was
 * committed since that first read, so the value (computed after it) is still exactly what a fresh
 * computation would give. Any change makes the next request compute again. Requests that arrive
 * while a computation runs share it; they get a value at least as fresh as the version they read.
 *
 * `key` stands for everything else the value depends on (the user, today's date, the page
 * asked for…); the most recently used `maxEntries` keys are kept.
 */
export interface VersionedCache<Value> {
  /**
   * The value for `key`, computed again only if something it read has changed. Given at once (not
   * a promise) when a value computed at the current version is ready and asking for the version
   * costs no query (SQLite): the common case then runs without waiting for anything.
   */
  get(key: string | number, compute: () => Promise<Value>): Value | Promise<Value>;
}

interface Entry<Value> {
  version: number;
  value: Promise<Value>;
  /** Set once the computation has succeeded. */
  ready?: { value: Value };
}

export function createVersionedCache<Value>(
  changes: ChangeWatch,
  tables: readonly VersionedTable[],
  maxEntries = 1,
): VersionedCache<Value> {
  const entries = new Map<string | number, Entry<Value>>();

  const lookup = (key: string | number, version: number, compute: () => Promise<Value>) => {
    const cached = entries.get(key);
    if (cached && cached.version === version) {
      // Most recently used last.
      entries.delete(key);
      entries.set(key, cached);
      return cached.ready ? cached.ready.value : cached.value;
    }
    const value = compute();
    // Versions only grow: never let a slower, older computation replace a newer one.
    if (!cached || version >= cached.version) {
      const current: Entry<Value> = { version, value };
      entries.delete(key);
      entries.set(key, current);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      value.then(
        (settled) => {
          current.ready = { value: settled };
        },
        () => {
          if (entries.get(key) === current) entries.delete(key);
        },
      );
    }
    return value;
  };

  return {
    get(key, compute) {
      const version = changes.versionOf(tables);
      return typeof version === 'number'
        ? lookup(key, version, compute)
        : version.then((read) => lookup(key, read, compute));
    },
  };
}
