import path from 'node:path';
import { sameHoursEveryDay } from '@bloodbank/shared/sites';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import type { Role } from '@bloodbank/shared/auth';
import { addDays } from '@bloodbank/shared/dates';
import { seedDatabase, type SeedResult } from '../../src/cli/seed-scale';
import { SQLITE_FILE_NAME } from '../../src/db/open-from-config';
import { createTestApp, testDatabaseUrl, type TestApp } from '../test-app';

/**
 * The hot reads stay index lookups as the bank grows: a dropped index or a query rewritten into a
 * scan fails here, not months later in production. (Timings are the benchmark's job, bench/run.ts;
 * this file only asks each engine how it WOULD run the queries.)
 *
 * A database is seeded at three tenths of the benchmark's default scale (3,000 donors, 30,000
 * donations, 6,000 requests, 15,000 units and their activity feeds) by the benchmark's own seeder.
 * Each hot route is then called once through the app while every SQL query it runs is collected,
 * and each query is EXPLAINed with its real parameters: the plans are the ones production gets.
 * On SQLite the plans are checked twice, without planner statistics (a database nobody ever
 * analyzed) and with them; on PostgreSQL with them (autovacuum keeps them). The game routes have
 * their own plan test (modules/game/game-query-plans.test.ts).
 */
const NOW = '2026-06-15T10:00:00.000Z';
const SCALE = 0.3;

/** Tables that grow with the bank's history. Reading one whole, on a hot route, is the bug. */
const GROWING_TABLES = [
  'users',
  'patients',
  'donations',
  'blood_requests',
  'blood_units',
  'activities',
  'game_profiles',
  'game_rewards',
  'earned_achievements',
  'audit_log',
];

interface RecordedQuery {
  sql: string;
  parameters: readonly unknown[];
}

let recording: RecordedQuery[] | undefined;
let t: TestApp;
let seed: SeedResult;

beforeAll(async () => {
  t = await createTestApp({
    now: NOW,
    queryLog: (query, parameters) => recording?.push({ sql: query, parameters }),
  });
  const schema = t.engine === 'postgres' ? await currentSchema() : undefined;
  seed = await seedDatabase(
    t.engine === 'postgres'
      ? { databaseUrl: testDatabaseUrl, pgSchema: schema, migrate: false, analyze: true }
      : { sqliteFile: path.join(t.config.dataDir, SQLITE_FILE_NAME), migrate: false, analyze: false },
    SCALE,
    new Date(NOW),
  );
}, 180_000);
afterAll(() => t.close());

async function currentSchema(): Promise<string> {
  const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.db);
  return result.rows[0]!.schema;
}

async function tokenFor(id: number, role: Role): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await t.app.jwt.sign({ sub: String(id), role, ver: 0 })}` };
}

/**
 * Stock, the admin dashboard and the admin lists are reused until their tables change
 * (db/change-versions.ts): a no-op update of a unit and of a user makes the next call compute
 * them, so their queries run.
 */
async function changeUnitsAndUsers(): Promise<void> {
  await sql`update blood_units set expires_on = expires_on where id = 1`.execute(t.db);
  await sql`update users set updated_at = updated_at where id = ${seed.adminId}`.execute(t.db);
}

/** Calls a route (GET, or a POST with a body answered 201) and returns every SQL query it ran. */
async function queriesOf(url: string, headers: { authorization: string }, body?: object, status = body ? 201 : 200): Promise<RecordedQuery[]> {
  recording = [];
  try {
    const response = await t.app.inject(body ? { method: 'POST', url, headers, payload: body } : { method: 'GET', url, headers });
    expect(response.statusCode, response.body).toBe(status);
    return recording;
  } finally {
    recording = undefined;
  }
}

async function planOf(query: RecordedQuery): Promise<string> {
  const explain = t.engine === 'sqlite' ? 'explain query plan ' : 'explain ';
  const result = await t.db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(explain + query.sql, [...query.parameters]),
  );
  return result.rows.map((row) => String(t.engine === 'sqlite' ? row.detail : row['QUERY PLAN'])).join('\n');
}

/** SQLite says "SCAN t" (without "USING … INDEX") for a full read; PostgreSQL "Seq Scan on t". */
function fullScansIn(plan: string): string[] {
  return plan
    .split('\n')
    .filter((line) =>
      GROWING_TABLES.some((table) =>
        new RegExp(
          t.engine === 'sqlite'
            ? `\\bSCAN ${table}\\b(?! USING (COVERING )?INDEX)`
            : `Seq Scan on ${table}\\b`,
        ).test(line),
      ),
    );
}

interface Plans {
  queries: RecordedQuery[];
  plans: string[];
}

async function plansOf(url: string, headers: { authorization: string }, body?: object, status?: number): Promise<Plans> {
  // A write's transaction control (begin, savepoints, commit) has no plan.
  const queries = (await queriesOf(url, headers, body, status)).filter((query) => /^\s*(select|insert|update|delete|with)\b/i.test(query.sql));
  return { queries, plans: await Promise.all(queries.map(planOf)) };
}

function expectNoFullScans({ queries, plans }: Plans) {
  plans.forEach((plan, index) => expect(fullScansIn(plan), `${queries[index]!.sql}\n${plan}`).toEqual([]));
}

/**
 * A query about one person's rows (`"donor_id" = ?` …) must find them through that column: an index
 * on something broader (every approved donation, say) is a scan in all but name.
 */
function expectOwnerLookups({ queries, plans }: Plans) {
  queries.forEach((query, index) => {
    const owner = /"(donor_id|patient_id|user_id)" = (\?|\$\d+)/.exec(query.sql)?.[1];
    if (!owner) return;
    const plan = plans[index]!;
    if (t.engine === 'sqlite') expect(plan, `${query.sql}\n${plan}`).toContain(`${owner}=?`);
    else expect(plan, `${query.sql}\n${plan}`).toMatch(new RegExp(`Cond: \\(+${owner} = `));
  });
}

/** The plan of the one query whose SQL matches. */
function planFor({ queries, plans }: Plans, pattern: RegExp): string {
  const matching = queries.flatMap((query, index) => (pattern.test(query.sql) ? [plans[index]!] : []));
  expect(matching, `one query matching ${pattern}`).toHaveLength(1);
  return matching[0]!;
}

const statistics = testDatabaseUrl
  ? (['with statistics'] as const)
  : (['without statistics', 'with statistics'] as const);

describe.each(statistics)(`hot read plans at scale ${SCALE} (%s)`, (state) => {
  beforeAll(async () => {
    if (state === 'with statistics' && t.engine === 'sqlite') await sql`analyze`.execute(t.db);
  });

  it('has the seeded history', () => {
    expect(seed.counts.donations).toBe(30_000);
    expect(seed.counts.units).toBe(15_000);
  });

  it('GET /api/stock sums blood_stock by group and never reads the units themselves', async () => {
    await changeUnitsAndUsers();
    const plans = await plansOf('/api/stock', await tokenFor(seed.donorIds[0]!, 'DONOR'));
    expectNoFullScans(plans);
    expect(plans.queries.some((query) => /(from|join) "blood_units"/.test(query.sql))).toBe(false);
    const stock = planFor(plans, /from "blood_stock"/);
    if (t.engine === 'sqlite')
      expect(stock).toMatch(/SEARCH blood_stock USING PRIMARY KEY \(bloodgroup=\? AND component=\? AND expires_on>\?\)/);
  });

  it("GET /api/donor/summary reads only the donor's own rows, by index", async () => {
    const plans = await plansOf('/api/donor/summary', await tokenFor(seed.donorIds[5]!, 'DONOR'));
    expectNoFullScans(plans);
    expectOwnerLookups(plans);
    const feed = planFor(plans, /from "activities"/);
    expect(feed).toContain('activities_user_idx');
    // Newest ten straight from the index: no sort of the donor's whole feed.
    if (t.engine === 'sqlite') expect(feed).not.toContain('TEMP B-TREE');
    // The interval counts from the last collection: the donor's own rows, by index.
    expect(planFor(plans, /max\("collected_on"\)/)).toMatch(/donations_donor_status_date_idx|donations_donor_idx/);
    expect(planFor(plans, /from "deferrals"/)).toContain('deferrals_donor_idx');
  });

  it("GET /api/patient/summary counts the patient's own requests by index", async () => {
    const plans = await plansOf('/api/patient/summary', await tokenFor(seed.patientIds[3]!, 'PATIENT'));
    expectNoFullScans(plans);
    expectOwnerLookups(plans);
    expect(planFor(plans, /from "blood_requests"/)).toContain('requests_patient_idx');
  });

  it('GET /api/admin/requests?status=pending reads one page in index order, with no sort of all pending requests', async () => {
    await changeUnitsAndUsers();
    const plans = await plansOf('/api/admin/requests?status=pending', await tokenFor(seed.adminId, 'ADMIN'));
    expectNoFullScans(plans);
    const page = planFor(plans, /inner join "users".*limit/s);
    // Needed soonest first: read in that index's order, stopping at the page, never sorting them all.
    if (t.engine === 'sqlite') {
      expect(page).toContain('requests_status_needed_idx');
      expect(page).not.toContain('TEMP B-TREE');
    } else {
      expect(page).toMatch(/^Limit/);
      expect(page).toContain('requests_status_needed_idx');
      expect(page).not.toMatch(/^\s*(->\s*)?Sort \s*\(/m);
    }
    expect(planFor(plans, /"request_id" in \(/)).toContain('units_request_idx');
  });

  it('GET /api/admin/requests (pending first, then newest) reads two runs in index order, never sorting the table', async () => {
    await changeUnitsAndUsers();
    // The page where the pending requests end: it reads the last of them and the newest others.
    const page = Math.floor(seed.counts.pendingRequests / 20) + 1;
    expect(seed.counts.pendingRequests % 20).not.toBe(0);
    const plans = await plansOf(`/api/admin/requests?page=${page}`, await tokenFor(seed.adminId, 'ADMIN'));
    // The total of an unfiltered list counts every request; nothing else may read them all.
    const totalOfAll = (query: RecordedQuery) => /count\(\*\)/.test(query.sql) && !/ where /.test(query.sql);
    const pagePlans = plans.plans.filter((_, index) => !totalOfAll(plans.queries[index]!));
    const pageQueries = plans.queries.filter((query) => !totalOfAll(query));
    if (t.engine === 'sqlite') expectNoFullScans({ queries: pageQueries, plans: pagePlans });
    else {
      // For a page deep in the pending run, PostgreSQL may hash this small test's 3,600 users
      // rather than look up 300 names; the requests themselves are never read whole.
      pagePlans.forEach((plan, index) =>
        expect(plan, pageQueries[index]!.sql).not.toMatch(/Seq Scan on (blood_requests|blood_units)\b/),
      );
    }
    const pages = plans.queries.flatMap((query, index) =>
      / limit /.test(query.sql) ? [plans.plans[index]!] : [],
    );
    expect(pages).toHaveLength(2);
    // (PostgreSQL may choose to sort the pending run itself for a deep page: a few hundred rows,
    // never the table, which expectNoFullScans already guarantees.)
    if (t.engine === 'sqlite')
      for (const page of pages) expect(page).not.toContain('TEMP B-TREE FOR ORDER BY');
  });

  it("GET /api/admin/donations?status=pending&due=true reads the day's bookings in time order from donations_status_date_slot_idx, never sorting them", async () => {
    // A change to the donations, so the list is read again rather than reused.
    await sql`update donations set disease = disease where id = 1`.execute(t.db);
    const plans = await plansOf('/api/admin/donations?status=pending&due=true', await tokenFor(seed.adminId, 'ADMIN'));
    expectNoFullScans(plans);
    const page = planFor(plans, /order by "donations"\."donation_date", "donations"\."slot"/);
    if (t.engine === 'sqlite') {
      expect(page).toContain('donations_status_date_slot_idx');
      expect(page).not.toContain('TEMP B-TREE');
    } else {
      expect(page).not.toMatch(/Seq Scan on donations\b/);
      expect(page).not.toMatch(/^\s*(->\s*)?Sort \s*\(/m);
    }
  });

  it("GET /api/admin/donors reads one page, and the deferrals of that page's donors through deferrals_donor_idx", async () => {
    const plans = await plansOf('/api/admin/donors?page=3&search=a', await tokenFor(seed.adminId, 'ADMIN'));
    const deferrals = planFor(plans, /from "deferrals"/);
    // PostgreSQL, with statistics, may read this test's few hundred deferrals whole rather than
    // look up twenty donors; SQLite has no statistics here and must seek.
    if (t.engine === 'sqlite') expect(deferrals).toContain('deferrals_donor_idx');
    expectNoFullScans({
      // The search reads every donor's name (a LIKE): its count and page are the list's, not new here.
      queries: plans.queries.filter((query) => /from "deferrals"/.test(query.sql)),
      plans: plans.plans.filter((_, index) => /from "deferrals"/.test(plans.queries[index]!.sql)),
    });
  });

  it("POST /api/admin/sites/:id/affected-bookings reads bookings from today by index, not the bank's history", async () => {
    const tomorrow = addDays(NOW.slice(0, 10), 1);
    const everyDay = sameHoursEveryDay({ open: '08:00', close: '18:00' });
    // A no-op change of a booking: the answer (reused until a booking changes) is computed again.
    await sql`update donations set disease = disease where id = 1`.execute(t.db);
    const plans = await plansOf('/api/admin/sites/1/affected-bookings', await tokenFor(seed.adminId, 'ADMIN'), { hours: everyDay, closed_dates: [tomorrow] }, 200);
    expectNoFullScans(plans);
    // By the site's bookings from today, or by the pending ones from today (either index bounds
    // them by the booking horizon), never every booking the bank has had.
    const bookings = planFor(plans, /from "donations"/);
    if (t.engine === 'sqlite') expect(bookings).toMatch(/SEARCH donations USING INDEX donations_\w+ \((site_id|status)=\? AND donation_date>\?\)/);
    else expect(bookings).not.toMatch(/Seq Scan on donations\b/);
  });

  it("GET /api/sites/:id/slots and a site's day list count a day's places through donations_slot_status_idx", async () => {
    const donor = await tokenFor(seed.donorIds[0]!, 'DONOR');
    const admin = await tokenFor(seed.adminId, 'ADMIN');
    // The app's day, not the machine's: slots past the 90-day booking window are not computed at all.
    const tomorrow = addDays(NOW.slice(0, 10), 1);
    // A no-op change of a booking: the slots (reused until a booking changes) are computed again.
    await sql`update donations set disease = disease where id = 1`.execute(t.db);
    for (const plans of [
      await plansOf(`/api/sites/1/slots?date=${tomorrow}`, donor),
      await plansOf(`/api/admin/sites/1/day?date=${tomorrow}`, admin),
    ]) {
      expectNoFullScans(plans);
      expect(planFor(plans, /from "donations"/)).toContain('donations_slot_status_idx');
    }
  });

  it('POST /api/donations seeks to the places a slot holds and to the donor\'s pending and collected donations, never through cancelled ones', async () => {
    const tomorrow = addDays(NOW.slice(0, 10), 1);
    // A donor free to book: nothing pending, not deferred, eligible by tomorrow.
    let booker: { id: number; authorization: string } | undefined;
    for (const id of seed.donorIds.slice(-400)) {
      const { authorization } = await tokenFor(id, 'DONOR');
      const summary = (await t.app.inject({ url: '/api/donor/summary', headers: { authorization } })).json<{
        pending: number;
        deferred: unknown;
        next_eligible_date: string | null;
      }>();
      if (summary.pending === 0 && summary.deferred === null && summary.next_eligible_date !== null && summary.next_eligible_date <= tomorrow) {
        booker = { id, authorization };
        break;
      }
    }
    expect(booker, 'a seeded donor who can book tomorrow').toBeDefined();
    const slots = (await t.app.inject({ url: `/api/sites/1/slots?date=${tomorrow}`, headers: { authorization: booker!.authorization } })).json<
      { time: string; available: number }[]
    >();
    const free = slots.find((slot) => slot.available > 0);
    expect(free, 'a free slot tomorrow at site 1').toBeDefined();
    const plans = await plansOf('/api/donations', { authorization: booker!.authorization }, {
      unit: 1,
      date: tomorrow,
      disease: 'None',
      confirmation: true,
      site_id: 1,
      slot: free!.time,
    });
    expectNoFullScans(plans);
    expectOwnerLookups(plans);
    const places = planFor(plans, /count\(\*\).*from "donations".*"slot" =/s);
    expect(places).toContain('donations_slot_status_idx');
    if (t.engine === 'sqlite') expect(places).toContain('slot=? AND status=?');
    const facts = planFor(plans, /"status" = .*"collected_on"/s);
    if (t.engine === 'sqlite') expect(facts.match(/donor_id=\? AND status=\?/g)).toHaveLength(2);
    else expect(facts).not.toMatch(/Seq Scan/);
  });

  it('GET /api/admin/dashboard computes from counters and index ranges, then is reused until something changes', async () => {
    const admin = await tokenFor(seed.adminId, 'ADMIN');
    await changeUnitsAndUsers();
    const plans = await plansOf('/api/admin/dashboard', admin);
    // Counting the active donors reads users on PostgreSQL (its right plan when nearly every user is
    // an active donor; SQLite counts them in users_active_role_idx). It runs only when something changed.
    const counts = (query: RecordedQuery) =>
      t.engine === 'postgres' && /count\(\*\).*from "users"/s.test(query.sql);
    expectNoFullScans({
      queries: plans.queries.filter((query) => !counts(query)),
      plans: plans.plans.filter((_, index) => !counts(plans.queries[index]!)),
    });
    // Stock and expiry counts come from blood_stock; units are read only for the list of expiring
    // bags and the count of those in testing (quarantined), each by index.
    const unitQueries = plans.queries.filter((query) => /(from|join) "blood_units"/.test(query.sql));
    expect(unitQueries).toHaveLength(2);
    expect(planFor(plans, /from "blood_units".*"expires_on" <=/s)).toContain('units_status_expiry_idx');
    expect(planFor(plans, /from "blood_units".*group by/s)).toMatch(/units_status_expiry_idx|units_group_status_expiry_idx/);
    expect(planFor(plans, /from "blood_stock"/)).not.toContain('blood_units');

    // Nothing changed since: the next call only checks who is asking and whether anything changed,
    // by one read of the change counters on PostgreSQL and with no Kysely query at all on SQLite (its
    // change counters are read straight on the connection, once per turn).
    const again = await queriesOf('/api/admin/dashboard', admin);
    expect(again.map((query) => query.sql.match(/from "(\w+)"/)?.[1])).toEqual(
      // PostgreSQL asks the change counters once, for the session check (the users) and what the
      // answer read alike; the user's row itself is reused too.
      t.engine === 'postgres' ? ['change_counters'] : [],
    );
    for (const query of again) expect(fullScansIn(await planOf(query))).toEqual([]);
  });

  it('GET /api/stock is then reused: the next call only checks who is asking and whether a unit changed', async () => {
    const donor = await tokenFor(seed.donorIds[0]!, 'DONOR');
    await queriesOf('/api/stock', donor);
    const again = await queriesOf('/api/stock', donor);
    expect(again.map((query) => query.sql.match(/from "(\w+)"/)?.[1])).toEqual(
      // PostgreSQL asks the change counters once, for the session check (the users) and what the
      // answer read alike; the user's row itself is reused too.
      t.engine === 'postgres' ? ['change_counters'] : [],
    );
  });

  it('GET /api/admin/dashboard computes again as soon as a request is submitted', async () => {
    const admin = await tokenFor(seed.adminId, 'ADMIN');
    const before = (await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: admin })).json<{
      pendingRequests: number;
    }>();
    const patient = await tokenFor(seed.patientIds[0]!, 'PATIENT');
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      headers: patient,
      payload: {
        bloodgroup: 'A+',
        unit: 1,
        date: '2026-06-20',
        doctorname: 'Dr. Plan',
        hospitaladdress: 'City Hospital',
        reason: 'Surgery',
      },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const after = (await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: admin })).json<{
      pendingRequests: number;
    }>();
    expect(after.pendingRequests).toBe(before.pendingRequests + 1);
  });
});
