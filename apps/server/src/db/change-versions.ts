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
 * - SQLite: the server's own writes counted per table as its connection runs them, plus the
 *   database's data_version on that connection, which moves for every commit by any other
 *   connection or process (npm run admin:create, another instance, the sqlite3 shell). That one
 *   ignores which tables a commit touched: another writer's commit moves every version. Reading
 *   it is a call into SQLite with no I/O (the write-ahead log's shared index is in memory), cheap
 *   enough for every request.
 *
 * Both engines share one read among the requests of a turn of the event loop, on the premise that
 * versionOf is called while handling requests: in the callbacks of their sockets and database
 * queries, and what those await. A call first made from a timer or a setImmediate callback would
 * share its read with requests read from the network later in the same turn; nothing does that.
 */
export interface ChangeWatch {
  versionOf(tables: readonly VersionedTable[]): number | Promise<number>;
  /** Read afresh on the next call. */
  forget(): void;
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
  };
}

/** SQLite's watch is also told, as they run, what the server's own statements change (db/database.ts). */
export interface SqliteChangeWatch extends ChangeWatch {
  /** The server's connection ran a statement that may have changed these tables ('all': any). */
  changed(tables: readonly string[] | 'all'): void;
}

/**
 * SQLite: `dataVersion` is PRAGMA data_version on the server's own connection, which moves with
 * every commit made by any other connection or process, and never with this connection's own
 * (undefined when it cannot be read as of now, counted as a change). `onOtherWriter` is told each
 * time it moves (another writer may also have changed the schema).
 * Those the server counts per table as it runs them: so a write of a request leaves the answers
 * built from the users or the units reusable, where a write by anyone else moves every version.
 */
export function sqliteChangeWatch(
  dataVersion: () => number | undefined,
  onOtherWriter: () => void,
): SqliteChangeWatch {
  // Every part only grows, and every change moves one of them: so does their sum.
  let foreignChanges = 0;
  let ownChangesToAll = 0;
  const ownChanges = new Map<string, number>();
  // data_version is only "different after another connection's commit": turned here into a
  // counter that only grows, as VersionedCache expects.
  let lastDataVersion: number | undefined;
  // Read at most once per turn of the event loop. Every request handled in a turn had arrived
  // before the turn began, and the read is made during it, so it sees every commit acknowledged
  // before any of those requests was sent (a read may take effect at any point between its
  // request and its answer). The server's own changes need no read: they are counted as they run.
  let readThisTurn = false;
  const forget = () => {
    readThisTurn = false;
  };
  return {
    versionOf(tables) {
      if (!readThisTurn) {
        let current: number | undefined;
        try {
          current = dataVersion();
        } catch {
          current = undefined; // unreadable: counted as a change
        }
        if (current === undefined || current !== lastDataVersion) {
          lastDataVersion = current;
          foreignChanges += 1;
          onOtherWriter();
        }
        readThisTurn = true;
        setImmediate(forget);
      }
      let version = foreignChanges + ownChangesToAll;
      for (const table of tables) version += ownChanges.get(table) ?? 0;
      return version;
    },
    changed(tables) {
      if (tables === 'all') ownChangesToAll += 1;
      else for (const table of tables) ownChanges.set(table, (ownChanges.get(table) ?? 0) + 1);
    },
    forget,
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
      // Most recently used last. Not for a cache of one: deleting its only entry shrinks the Map,
      // and setting it grows the Map again, on every read (measured: 1.6% of a cached read).
      if (maxEntries > 1) {
        entries.delete(key);
        entries.set(key, cached);
      }
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
