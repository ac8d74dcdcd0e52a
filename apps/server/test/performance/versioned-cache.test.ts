import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import {
  counterChangeWatch,
  createVersionedCache,
  VERSIONED_TABLES,
  type ChangeWatch,
  type VersionedTable,
} from '../../src/db/change-versions';
import { openDatabase, type DatabaseHandle } from '../../src/db/database';
import { sqliteCounterTotals } from '../../src/db/sqlite';
import { resetPassword } from '../../src/modules/users/admin-accounts';
import { SQLITE_FILE_NAME } from '../../src/db/open-from-config';
import { donationForm, PASSING_SCREENING } from '../donation-helpers';
import { createAdmin, createDonor, createPatient, type TestUser } from '../factories';
import { createTestApp, testDatabaseUrl, type TestApp } from '../test-app';

/**
 * The stock, the admin dashboard, the admin lists and the leaderboard are reused between changes
 * (db/change-versions.ts).
 * Reuse must never show a stale figure: a change made through another server instance on the
 * same database (or by hand in SQL) is in the very next answer of this one.
 */
const NOW = '2026-06-15T10:00:00.000Z';

let t: TestApp;
let other: FastifyInstance;
let otherDatabase: DatabaseHandle;
let admin: TestUser;
let patient: TestUser;

beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  const schema =
    t.engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(t.db)).rows[0]!.schema
      : undefined;
  // A second instance: its own app and connections, the same database.
  otherDatabase = schema
    ? openDatabase({ databaseUrl: testDatabaseUrl, pgSchema: schema, poolSize: 2 })
    : openDatabase({ sqliteFile: path.join(t.config.dataDir, SQLITE_FILE_NAME) });
  other = await buildApp(t.config, { database: otherDatabase, clock: t.clock, logger: false });
  await other.ready();
  admin = await createAdmin(t);
  patient = await createPatient(t);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const stockOf = async (app: FastifyInstance, group: string) => {
  const response = await app.inject({ method: 'GET', url: '/api/stock', headers: admin.headers });
  expect(response.statusCode).toBe(200);
  return response.json<{ bloodgroup: string; units: number }[]>().find((entry) => entry.bloodgroup === group)!
    .units;
};

const dashboardOf = async (app: FastifyInstance) => {
  const response = await app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: admin.headers });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return response.json<{ pendingRequests: number; totalBloodUnits: number; totalPatients: number }>();
};

describe('reused aggregates stay exact', () => {
  it('stock: units received through another instance count at once, and so do units changed by hand', async () => {
    expect(await stockOf(t.app, 'B-')).toBe(0);
    expect(await stockOf(t.app, 'B-')).toBe(0);

    const received = await other.inject({
      method: 'POST',
      url: '/api/admin/units',
      headers: admin.headers,
      payload: { bloodgroup: 'B-', count: 3, collected_on: '2026-06-14' },
    });
    expect(received.statusCode, received.body).toBe(201);
    expect(await stockOf(t.app, 'B-')).toBe(3);

    await sql`update blood_units set status = 'discarded', discarded_at = ${NOW}, discard_reason = 'test' where bloodgroup = 'B-' and id = (select min(id) from blood_units where bloodgroup = 'B-')`.execute(
      t.db,
    );
    expect(await stockOf(t.app, 'B-')).toBe(2);
    expect(await stockOf(other, 'B-')).toBe(2);
  });

  it('stock: a unit that expires overnight leaves the stock when the day turns', async () => {
    const received = await other.inject({
      method: 'POST',
      url: '/api/admin/units',
      headers: admin.headers,
      // Collected 41 days ago: with the 42-day shelf life it expires tomorrow.
      payload: { bloodgroup: 'AB-', count: 1, collected_on: '2026-05-05' },
    });
    expect(received.statusCode, received.body).toBe(201);
    expect(await stockOf(t.app, 'AB-')).toBe(1);
    t.clock.set('2026-06-17T10:00:00.000Z');
    try {
      expect(await stockOf(t.app, 'AB-')).toBe(0);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('dashboard: a request submitted through another instance, and a new patient, show at once', async () => {
    const before = await dashboardOf(t.app);
    expect(await dashboardOf(t.app)).toEqual(before);

    const submitted = await other.inject({
      method: 'POST',
      url: '/api/requests',
      headers: patient.headers,
      payload: {
        bloodgroup: 'O+',
        unit: 2,
        date: '2026-06-20',
        doctorname: 'Dr. Cache',
        hospitaladdress: 'City Hospital',
        reason: 'Surgery',
      },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const afterRequest = await dashboardOf(t.app);
    expect(afterRequest.pendingRequests).toBe(before.pendingRequests + 1);

    await createPatient(t);
    expect((await dashboardOf(t.app)).totalPatients).toBe(before.totalPatients + 1);
    expect((await dashboardOf(other)).totalPatients).toBe(before.totalPatients + 1);
  });

  it('leaderboard: a profile created through another instance is on the board at once', async () => {
    const board = async (app: FastifyInstance) => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/game/leaderboard?limit=100',
        headers: admin.headers,
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ user_id: number }[]>().map((entry) => entry.user_id);
    };
    const donor = await createDonor(t);
    expect(await board(t.app)).not.toContain(donor.id);
    const created = await other.inject({ method: 'POST', url: '/api/game/profiles', headers: donor.headers });
    expect(created.statusCode, created.body).toBe(201);
    expect(await board(t.app)).toContain(donor.id);
  });

  it('admin lists: a request cancelled through another instance shows its new status at once', async () => {
    const page = async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/admin/requests?status=pending',
        headers: admin.headers,
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ items: { id: number }[]; total: number }>();
    };
    const before = await page();
    const [first] = before.items;
    expect(first).toBeDefined();
    const cancelled = await other.inject({
      method: 'POST',
      url: `/api/requests/${first!.id}/cancel`,
      headers: patient.headers,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const after = await page();
    expect(after.total).toBe(before.total - 1);
    expect(after.items.map((item) => item.id)).not.toContain(first!.id);
  });

  it("per-user answers: a donor's summary and game screen, and a patient's counters, follow changes made through another instance", async () => {
    const donor = await createDonor(t);
    const get = async (app: FastifyInstance, url: string, headers: Record<string, string>) => {
      const response = await app.inject({ method: 'GET', url, headers });
      return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
    };
    const summary = async () => (await get(t.app, '/api/donor/summary', donor.headers)).body;
    expect((await summary()).pending).toBe(0);
    expect((await summary()).pending).toBe(0);
    const offered = await other.inject({
      method: 'POST',
      url: '/api/donations',
      headers: donor.headers,
      payload: donationForm('2026-06-15'),
    });
    expect(offered.statusCode, offered.body).toBe(201);
    expect((await summary()).pending).toBe(1);

    // No profile yet: 404, not reused once the profile exists.
    expect((await get(t.app, '/api/game/state', donor.headers)).status).toBe(404);
    expect(
      (await other.inject({ method: 'POST', url: '/api/game/profiles', headers: donor.headers })).statusCode,
    ).toBe(201);
    const state = async () =>
      (await get(t.app, '/api/game/state', donor.headers)).body as { profile: { points: number } };
    expect((await state()).profile.points).toBe(0);
    // Staff collect the donation through the other instance: Blood Hero credits it there.
    const collected = await other.inject({
      method: 'POST',
      url: `/api/admin/donations/${offered.json().id}/collect`,
      headers: admin.headers,
      payload: PASSING_SCREENING,
    });
    expect(collected.statusCode, collected.body).toBe(200);
    expect((await summary()).pending).toBe(0);
    const rewarded = await other.inject({
      method: 'POST',
      url: '/api/game/donation-complete',
      headers: donor.headers,
    });
    expect(rewarded.statusCode, rewarded.body).toBe(200);
    const newPoints = rewarded.json<{ profile: { points: number } }>().profile.points;
    expect(newPoints).toBeGreaterThan(0);
    expect((await state()).profile.points).toBe(newPoints);

    const counters = async () => (await get(t.app, '/api/patient/summary', patient.headers)).body;
    const before = await counters();
    const submitted = await other.inject({
      method: 'POST',
      url: '/api/requests',
      headers: patient.headers,
      payload: {
        bloodgroup: 'A+',
        unit: 1,
        date: '2026-06-20',
        doctorname: 'Dr. Cache',
        hospitaladdress: 'City Hospital',
        reason: 'Surgery',
      },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    expect(await counters()).toEqual({
      ...before,
      total: Number(before.total) + 1,
      pending: Number(before.pending) + 1,
    });
  });

  it('a donor deactivated through another instance is signed out of this one at once', async () => {
    const donor = await createDonor(t);
    const stock = () => t.app.inject({ method: 'GET', url: '/api/stock', headers: donor.headers });
    expect((await stock()).statusCode).toBe(200);
    expect((await stock()).statusCode).toBe(200);
    const deactivated = await other.inject({
      method: 'DELETE',
      url: `/api/admin/donors/${donor.id}`,
      headers: admin.headers,
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((await stock()).statusCode).toBe(401);
  });

  it('an admin whose password is reset through another connection (npm run admin:create -- --reset) is signed out at once', async () => {
    const resetAdmin = await createAdmin(t);
    const dashboard = () =>
      t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: resetAdmin.headers });
    expect((await dashboard()).statusCode).toBe(200);
    expect((await dashboard()).statusCode).toBe(200);
    expect(await resetPassword(otherDatabase.db, resetAdmin.username, 'a-brand-new-password-42')).toBe(true);
    expect((await dashboard()).statusCode).toBe(401);
  });

  it('every statement that changes a row of a versioned table moves its version forward, on both engines', async () => {
    const versionOf = async (table: string) => {
      const result = await sql<{ version: number | string }>`
        select sum(${sql.ref(table)}) as version from change_counters`.execute(t.db);
      return Number(result.rows[0]!.version);
    };
    const changes: Record<VersionedTable, ReturnType<typeof sql>> = {
      users: sql`update users set updated_at = updated_at where id = ${admin.id}`,
      patients: sql`update patients set age = age where user_id = ${patient.id}`,
      blood_requests: sql`update blood_requests set reason = reason where id = (select min(id) from blood_requests)`,
      blood_units: sql`update blood_units set created_at = created_at where id = (select min(id) from blood_units)`,
      donations: sql`update donations set disease = disease where id = (select min(id) from donations)`,
      game_profiles: sql`update game_profiles set updated_at = updated_at where id = (select min(id) from game_profiles)`,
      achievements: sql`update achievements set name = name where id = (select min(id) from achievements)`,
      earned_achievements: sql`update earned_achievements set earned_at = earned_at where id = (select min(id) from earned_achievements)`,
      game_rewards: sql`update game_rewards set points = points where id = (select min(id) from game_rewards)`,
      activities: sql`update activities set message = message where id = (select min(id) from activities)`,
      audit_log: sql`update audit_log set actor = actor where id = (select min(id) from audit_log)`,
      deferrals: sql`update deferrals set reason = reason where id = (select min(id) from deferrals)`,
      donation_screenings: sql`update donation_screenings set pulse = pulse where donation_id = (select min(donation_id) from donation_screenings)`,
      donation_test_results: sql`update donation_test_results set hiv = hiv where donation_id = (select min(donation_id) from donation_test_results)`,
      notifications: sql`insert into notifications (user_id, kind, title, body, created_at) values (${admin.id}, 'test', 'Test', 'A test.', '2026-01-01T00:00:00.000Z')`,
      sites: sql`insert into sites (name, address, hours, created_at, updated_at) values ('Town Hall', '1 Main Street', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    };
    expect(Object.keys(changes).sort()).toEqual([...VERSIONED_TABLES].sort());
    for (let round = 0; round < 5; round++) {
      for (const [table, change] of Object.entries(changes)) {
        const before = await versionOf(table);
        const result = await change.execute(t.db);
        if (Number(result.numAffectedRows ?? 0) === 0) continue; // nothing of that kind yet
        expect(await versionOf(table), table).toBeGreaterThan(before);
      }
    }
  });

  it('the stock counters match a full count of the units after every kind of change', async () => {
    const counted = await sql<{ bloodgroup: string; expires_on: string; units: number }>`
      select bloodgroup, expires_on, count(*) as units from blood_units where status = 'available'
      group by bloodgroup, expires_on order by bloodgroup, expires_on`.execute(t.db);
    const kept = await sql<{ bloodgroup: string; expires_on: string; units: number }>`
      select bloodgroup, expires_on, units from blood_stock order by bloodgroup, expires_on`.execute(t.db);
    expect(kept.rows.map((row) => ({ ...row, units: Number(row.units) }))).toEqual(
      counted.rows.map((row) => ({ ...row, units: Number(row.units) })),
    );
  });
});

describe('counting changes per transaction', () => {
  const activitiesVersion = async () => {
    const result = await sql<{ version: number | string }>`select sum(activities) as version from change_counters`.execute(t.db);
    return Number(result.rows[0]!.version);
  };
  const insertActivity = (message: string) =>
    sql`insert into activities (user_id, kind, message, created_at) values (${patient.id}, 'test', ${message}, ${NOW})`;

  it('a transaction that changes a table many times moves its version (PostgreSQL: exactly once)', async () => {
    const before = await activitiesVersion();
    await t.db.transaction().execute(async (trx) => {
      for (let index = 0; index < 5; index += 1) await insertActivity(`many ${index}`).execute(trx);
    });
    const moved = (await activitiesVersion()) - before;
    if (t.engine === 'postgres') expect(moved).toBe(1);
    else expect(moved).toBeGreaterThanOrEqual(1);
    // The next transaction moves it again.
    await insertActivity('next').execute(t.db);
    expect(await activitiesVersion()).toBeGreaterThan(before + moved);
  });

  it('a change rolled back to its savepoint does not keep the rest of the transaction from counting', async () => {
    const before = await activitiesVersion();
    await t.db.transaction().execute(async (trx) => {
      await sql`savepoint first_work`.execute(trx);
      await insertActivity('rolled back').execute(trx);
      await sql`rollback to savepoint first_work`.execute(trx);
      await insertActivity('kept').execute(trx);
    });
    expect(await activitiesVersion()).toBeGreaterThan(before);
  });
});

describe('createVersionedCache on its own', () => {
  /** A change watch whose version the test moves by hand, free like SQLite's or a query like PostgreSQL's. */
  const watch = (isAQuery: boolean) => {
    let version = 1;
    const changes: ChangeWatch = {
      versionOf: () => (isAQuery ? Promise.resolve(version) : version),
      forget() {},
    };
    return { changes, commit: () => (version += 1) };
  };

  it('hands a ready value back at once, and computes again (waiting) after a change', async () => {
    const { changes, commit } = watch(false);
    const cache = createVersionedCache<string>(changes, ['blood_units'], 10);
    let computed = 0;
    const compute = async () => `answer ${++computed}`;

    const first = cache.get('key', compute);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe('answer 1');
    // Ready and nothing changed: the value itself, no promise and no computation.
    expect(cache.get('key', compute)).toBe('answer 1');
    expect(computed).toBe(1);

    commit();
    const afterChange = cache.get('key', compute);
    expect(afterChange).toBeInstanceOf(Promise);
    expect(await afterChange).toBe('answer 2');
    expect(cache.get('key', compute)).toBe('answer 2');
  });

  it('never keeps a failed computation: the next call computes again', async () => {
    const { changes } = watch(false);
    const cache = createVersionedCache<string>(changes, ['blood_units'], 10);
    await expect(cache.get('key', () => Promise.reject(new Error('database unreachable')))).rejects.toThrow(
      'database unreachable',
    );
    expect(await cache.get('key', async () => 'fresh')).toBe('fresh');
  });

  it('always waits where asking for the version is a query (PostgreSQL)', async () => {
    const { changes } = watch(true);
    const cache = createVersionedCache<string>(changes, ['blood_units'], 10);
    expect(await cache.get('key', async () => 'value')).toBe('value');
    const again = cache.get('key', async () => 'recomputed');
    expect(again).toBeInstanceOf(Promise);
    expect(await again).toBe('value');
  });
});

describe('the change watch', () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  /** Totals the test moves by hand; counts the reads, free like SQLite's or a query like PostgreSQL's. */
  const fakeCounters = (asQuery: boolean) => {
    const totals = Object.fromEntries(VERSIONED_TABLES.map((table) => [table, 0])) as Record<VersionedTable, number>;
    let reads = 0;
    let trusted = true;
    const readTotals = () => {
      reads += 1;
      if (!trusted) return undefined;
      const copy = { ...totals };
      return asQuery ? Promise.resolve(copy) : copy;
    };
    return {
      watch: counterChangeWatch(readTotals),
      bump: (table: VersionedTable) => (totals[table] += 1),
      untrusted: (value: boolean) => (trusted = !value),
      reads: () => reads,
    };
  };

  it('reads the counters once per turn of the event loop for every request of that turn', async () => {
    const counters = fakeCounters(true);
    const [first, second] = [counters.watch.versionOf(['users']), counters.watch.versionOf(['users', 'blood_units'])];
    expect(await first).toBe(0);
    expect(await second).toBe(0);
    counters.bump('users');
    // Same turn: the read already made stands.
    expect(await counters.watch.versionOf(['users'])).toBe(0);
    expect(counters.reads()).toBe(1);
    await nextTurn();
    expect(await counters.watch.versionOf(['users'])).toBe(1);
    expect(await counters.watch.versionOf(['blood_units'])).toBe(0);
    counters.watch.forget();
    expect(await counters.watch.versionOf(['users'])).toBe(1);
    expect(counters.reads()).toBe(3);
  });

  it("reuses a request's first read for the rest of what it asks, never another request's", async () => {
    const counters = fakeCounters(true);
    const [request, later] = [{}, {}];
    expect(await counters.watch.versionOf(['users'], request)).toBe(0);
    counters.bump('blood_units');
    await nextTurn();
    // Its session was checked with the first read; its answer, a turn later, uses the same one...
    expect(await counters.watch.versionOf(['blood_units'], request)).toBe(0);
    expect(counters.reads()).toBe(1);
    // ...while a request that arrives now gets a read of its own, which sees the change.
    expect(await counters.watch.versionOf(['blood_units'], later)).toBe(1);
    expect(counters.reads()).toBe(2);
  });

  it('moves only the versions of the tables that changed', async () => {
    const counters = fakeCounters(false);
    const before = { units: counters.watch.versionOf(['blood_units']), users: counters.watch.versionOf(['users']) };
    counters.bump('blood_units');
    await nextTurn();
    expect(counters.watch.versionOf(['blood_units'])).toBe((before.units as number) + 1);
    expect(counters.watch.versionOf(['users'])).toBe(before.users);
  });

  it('counts counters it cannot trust (inside a transaction) as a change of every table, and never goes back', async () => {
    const counters = fakeCounters(false);
    counters.bump('users');
    const start = counters.watch.versionOf(['users']) as number;
    counters.untrusted(true);
    await nextTurn();
    const unknown = counters.watch.versionOf(['users']) as number;
    expect(unknown).toBeGreaterThan(start);
    expect(counters.watch.versionOf(['blood_units'])).toBeGreaterThan(0);
    counters.untrusted(false);
    await nextTurn();
    expect(counters.watch.versionOf(['users'])).toBeGreaterThanOrEqual(unknown);
  });
});

describe.skipIf(Boolean(testDatabaseUrl))('SQLite change counters', () => {
  it('are read again only after a commit, by this connection or another one', () => {
    const file = path.join(t.config.dataDir, SQLITE_FILE_NAME);
    const [mine, another] = [new SQLite(file), new SQLite(file)];
    try {
      let ownWrites = 0;
      const readTotals = sqliteCounterTotals(mine, () => ownWrites);
      const first = readTotals()!;
      expect(first.users).toBeGreaterThan(0);
      // Nothing committed anywhere: the same totals, not a new read.
      expect(readTotals()).toBe(first);
      mine.prepare('select count(*) from users').get();
      expect(readTotals()).toBe(first);

      another.prepare('update users set updated_at = updated_at where id = (select min(id) from users)').run();
      const afterOther = readTotals()!;
      expect(afterOther).not.toBe(first);
      expect(afterOther.users).toBeGreaterThan(first.users);
      expect(readTotals()).toBe(afterOther);

      mine.prepare('update users set updated_at = updated_at where id = (select min(id) from users)').run();
      ownWrites += 1;
      const afterOwn = readTotals()!;
      expect(afterOwn.users).toBeGreaterThan(afterOther.users);

      // Inside a transaction its own uncommitted bumps would show: not to be trusted.
      mine.prepare('begin').run();
      expect(readTotals()).toBeUndefined();
      mine.prepare('rollback').run();
    } finally {
      mine.close();
      another.close();
    }
  });

  it("sees another connection's commit at the next turn, and a read moves nothing", async () => {
    const other = openDatabase({ sqliteFile: path.join(t.config.dataDir, SQLITE_FILE_NAME) });
    try {
      const watch = otherDatabase.changes;
      await new Promise((resolve) => setImmediate(resolve));
      const units = watch.versionOf(['blood_units']) as number;
      const users = watch.versionOf(['users']) as number;
      await sql`select count(*) from blood_units`.execute(other.db);
      await new Promise((resolve) => setImmediate(resolve));
      expect(watch.versionOf(['blood_units'])).toBe(units);
      await sql`update blood_units set created_at = created_at where id = (select min(id) from blood_units)`.execute(other.db);
      await new Promise((resolve) => setImmediate(resolve));
      expect(watch.versionOf(['blood_units'])).toBeGreaterThan(units);
      expect(watch.versionOf(['users'])).toBe(users);
    } finally {
      await other.close();
    }
  });
});
