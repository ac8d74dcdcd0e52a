import { sql, type CompiledQuery } from 'kysely';
import type { Database } from './handle';

/** The tables whose every change is counted in change_counters (migrations 2026-11-21-0002, 2026-11-25-0001, 2026-11-25-0002, 2026-11-25-0004, 2026-11-25-0005). */
export const VERSIONED_TABLES = [
  'users',
  'patients',
  'donations',
  'blood_requests',
  'blood_units',
  'game_profiles',
  'achievements',
  'earned_achievements',
  'game_rewards',
  'activities',
  'audit_log',
  'deferrals',
  'donation_screenings',
  'donation_test_results',
  'sites',
  'notifications',
] as const;
export type VersionedTable = (typeof VERSIONED_TABLES)[number];

/**
 * Tables kept by triggers from a counted one, in the same transaction: reading them is reading it.
 * (blood_stock holds the available units per group and expiry date, migration 2026-11-21-0001.)
 */
export const DERIVED_TABLES: Readonly<Record<string, VersionedTable>> = { blood_stock: 'blood_units' };

/** Every counted table's total over all shards, as of one read. */
export type CounterTotals = Readonly<Record<VersionedTable, number>>;

/**
 * "Has anything these tables hold changed since?", asked by every reused answer (VersionedCache).
 *
 * The answer is a number that never goes back and moves forward at least once for every commit
 * that changed one of the tables, made by this instance, another instance or a tool, before the
 * caller's read of it. One mechanism on both engines: triggers bump a counter per table in the
 * transaction of every change (change_counters), and the counters are read at most once per turn
 * of the event loop, shared by every request of that turn: each of them had arrived before the
 * turn began, and the read is made during it, so it sees every commit acknowledged before any of
 * those requests was sent. On SQLite the read is a synchronous call on the server's connection
 * (microseconds, no I/O: the log's index is in memory), on PostgreSQL one query.
 *
 * This is on the premise that versionOf is called while handling requests: in the callbacks of
 * their sockets and database queries, and what those await. A call first made from a timer or a
 * setImmediate callback would share its read with requests read from the network later in the same
 * turn; nothing does that.
 */
export interface ChangeWatch {
  /**
   * `asker`, when given, is the request asking, before it has written anything (its session check,
   * then the reused answer of a read): its first read is reused for the rest of what it asks. That
   * read began after the request arrived, so it is fresh for all of it; on PostgreSQL a read would
   * otherwise wait for a second round trip after its session check (the next turn's counter read).
   */
  versionOf(tables: readonly VersionedTable[], asker?: object): number | Promise<number>;
  /** Read afresh on the next call. */
  forget(): void;
  /**
   * Tests only: runs each reused answer's computation (the test build checks that it reads only the
   * tables its cache declares; test/test-app.ts), and hears of each cache made.
   */
  readsCheck?: ReadsCheck;
}

export interface ReadsCheck {
  cacheCreated(cache: object, tables: readonly VersionedTable[]): void;
  compute<T>(cache: object, tables: readonly VersionedTable[], compute: () => Promise<T>): Promise<T>;
}

/**
 * The change watch over `readTotals`: totals now, a promise of them (PostgreSQL), or undefined when
 * they cannot be trusted at this moment (SQLite inside an open transaction, whose own uncommitted
 * bumps it would see, or a database not migrated yet): that counts as a change of every table.
 */
export function counterChangeWatch(
  readTotals: () => CounterTotals | undefined | Promise<CounterTotals>,
): ChangeWatch {
  // Every part only grows, and every change moves one of them: so does their sum.
  let unknownReads = 0;
  let lastKnown: CounterTotals | undefined;
  let thisTurn: CounterTotals | Promise<CounterTotals> | undefined;
  const forget = () => {
    thisTurn = undefined;
  };
  const sum = (totals: CounterTotals | undefined, tables: readonly VersionedTable[]) => {
    let version = unknownReads;
    if (totals) for (const table of tables) version += Number(totals[table] ?? 0);
    return version;
  };
  const readNow = (): CounterTotals | Promise<CounterTotals> => {
    let read: CounterTotals | undefined | Promise<CounterTotals>;
    try {
      read = readTotals();
    } catch {
      read = undefined;
    }
    if (read === undefined) {
      unknownReads += 1;
      return lastKnown ?? ({} as CounterTotals);
    }
    if (read instanceof Promise) {
      return read.then(
        (totals) => (lastKnown = totals),
        (error: unknown) => {
          forget(); // not kept: the next request reads again
          throw error;
        },
      );
    }
    return (lastKnown = read);
  };
  /** Each asking request's read (see versionOf), for as long as the request lives. */
  const readsOfAskers = new WeakMap<object, CounterTotals | Promise<CounterTotals>>();
  return {
    versionOf(tables, asker) {
      let totals = asker && readsOfAskers.get(asker);
      if (totals === undefined) {
        if (thisTurn === undefined) {
          thisTurn = readNow();
          setImmediate(forget);
        }
        totals = thisTurn;
        // Only a read that is a query is kept for its asker: one read synchronously (SQLite) costs
        // less than keeping it, and a request asks again in the same turn anyway.
        if (asker && totals instanceof Promise) readsOfAskers.set(asker, totals);
      }
      return totals instanceof Promise ? totals.then((read) => sum(read, tables)) : sum(totals, tables);
    },
    forget,
  };
}

/**
 * The asker a request may be (ChangeWatch.versionOf): a read (GET, or its HEAD twin), which writes
 * nothing, so its first counters read serves all it asks. Any other request asks afresh each time.
 */
export const askerOf = <Request extends { method: string }>(request: Request): Request | undefined =>
  request.method === 'GET' || request.method === 'HEAD' ? request : undefined;

/** Totals from the counters' values in VERSIONED_TABLES' order (a row read by position, or a list of text). */
export function totalsInTableOrder(values: ArrayLike<number | string>): CounterTotals {
  return Object.fromEntries(VERSIONED_TABLES.map((table, index) => [table, Number(values[index])])) as CounterTotals;
}

/**
 * PostgreSQL: the totals of every counter over its shards, in one query, as one text column
 * ("12,0,7,…" in VERSIONED_TABLES' order): pg describes and parses every column of every result,
 * and sixteen numeric columns cost this process about 60 µs of CPU a read where one text costs 23.
 */
export function postgresCounterTotals(db: Database): () => Promise<CounterTotals> {
  let compiled: CompiledQuery<{ totals: string }> | undefined;
  return async () => {
    compiled ??= sql<{ totals: string }>`select concat_ws(',', ${sql.join(
      VERSIONED_TABLES.map((table) => sql`coalesce(sum(${sql.ref(table)}), 0)`),
    )}) as totals from ${sql.table('change_counters')}`.compile(db);
    const result = await db.executeQuery(compiled);
    return totalsInTableOrder(result.rows[0]!.totals.split(','));
  };
}

/**
 * At most one read of the counters under way (PostgreSQL, where a read is a round trip): a request
 * whose turn comes while one is under way cannot use it (it may have begun before the request
 * arrived, and miss a commit acknowledged just before), so it waits for the next read, which
 * begins as soon as that one ends and is shared by every request that arrived meanwhile. Under load
 * that is one query per round trip instead of one per turn of the event loop, each of which cost
 * this process and PostgreSQL CPU on every cached read.
 */
export function oneReadAtATime<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = () => {
    const reading = read();
    running = reading;
    const done = () => {
      if (running === reading) running = undefined;
    };
    reading.then(done, done);
    return reading;
  };
  const startNext = () => {
    next = undefined;
    return start();
  };
  return () => {
    if (!running) return start();
    // Whether the read under way succeeds or fails, the next one begins when it ends.
    next ??= running.then(startNext, startNext);
    return next;
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
  get(key: string | number, compute: () => Promise<Value>, asker?: object): Value | Promise<Value>;
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
  const cache = {};
  const { readsCheck } = changes;
  readsCheck?.cacheCreated(cache, tables);
  const run = readsCheck ? (compute: () => Promise<Value>) => readsCheck.compute(cache, tables, compute) : (compute: () => Promise<Value>) => compute();

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
    const value = run(compute);
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
    get(key, compute, asker) {
      const version = changes.versionOf(tables, asker);
      return typeof version === 'number'
        ? lookup(key, version, compute)
        : version.then((read) => lookup(key, read, compute));
    },
  };
}
