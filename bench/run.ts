/**
 * npm run bench [-- --scale 10] [--duration 3] [--connections 50] [--only stock,dashboard]
 *               [--skip-build] [--no-browser] [--keep] [--profile] [--statement-times]
 *
 * Builds, seeds a temporary database at scale (SQLite under a temporary DATA_DIR, or with
 * DATABASE_URL a fresh PostgreSQL database that is dropped afterwards), starts the real server as a
 * production process and a bare Fastify server (the reference), and drives both with autocannon
 * in the same run: each endpoint in slices, each slice beside one of the reference (the machine's
 * speed drifts), its ratio to the reference measured beside it. Prints a table and writes bench/results/latest.json (plus the run's context in
 * bench/results/latest-context.json). Everything it starts, it stops.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { sameHoursEveryDay } from '@bloodbank/shared/sites';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon, {
  type AutocannonOptions,
  type AutocannonRequest,
  type AutocannonResult,
  type RawAutocannonResult,
} from 'autocannon';
import pg from 'pg';
import { BOOKING_DAYS_AHEAD } from '@bloodbank/shared/constants';
import { addDays } from '@bloodbank/shared/dates';
import {
  BENCH_PASSWORD,
  donorUsername,
  seedDatabase,
  type SeedResult,
} from '../apps/server/src/cli/seed-scale';
import { LOGIN_LIMITS } from '../apps/server/src/lib/login-throttle';
import { measureWebVitals, type WebVitals } from './web-vitals';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const JWT_SECRET = 'bench-jwt-secret-fixed-so-the-harness-can-mint-tokens';

// ---------------------------------------------------------------- options

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return undefined;
  const value = process.argv[index + 1];
  return value && !value.startsWith('--') ? value : '';
}
const flag = (name: string) => process.argv.includes(`--${name}`);
const positiveNumber = (name: string, fallback: number) => {
  const raw = option(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number (got ${JSON.stringify(raw)})`);
    process.exit(2);
  }
  return value;
};

const settings = {
  scale: positiveNumber('scale', 1),
  duration: positiveNumber('duration', 10),
  connections: positiveNumber('connections', 50),
  only: option('only')?.split(',').filter(Boolean),
  build: !flag('skip-build'),
  browser: !flag('no-browser'),
  keep: flag('keep'),
  /** --profile: the server writes a V8 CPU profile to bench/profiles/ when it stops (open it in Chrome DevTools). */
  profile: flag('profile'),
  /** --statement-times (SQLite): the server writes each statement's count and time to bench/profiles/ (bench/statement-times.mjs). */
  statementTimes: flag('statement-times'),
  databaseUrl: process.env.DATABASE_URL || undefined,
};
if (settings.statementTimes && settings.databaseUrl)
  console.warn('--statement-times times SQLite statements only; with DATABASE_URL it records nothing');
const warmupSeconds = Math.min(2, Math.max(1, Math.round(settings.duration / 5)));

// ---------------------------------------------------------------- processes we start (and always stop)

const children = new Set<ChildProcess>();
function stopChildren() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
process.on('SIGINT', () => {
  stopChildren();
  process.exit(130);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

function startProcess(args: string[], env: NodeJS.ProcessEnv, label: string): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${label}] ${chunk.toString()}`));
  child.on('exit', () => children.delete(child));
  return child;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** CPU time a process has used so far, in microseconds (user + system, from /proc/<pid>/stat), or NaN off Linux. */
function cpuMicros(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

/** The window of the quiet check after a slice: a process that used at most a tenth of it is quiet. */
const QUIET_WINDOW_MS = 200;

/**
 * Waits until a process has gone quiet after a load; answers the CPU it used meanwhile and how long
 * it stayed busy (the final, quiet window not counted; no longer than the CPU it used). Work an
 * endpoint leaves in the background (the e-mails its requests queued, a checkpoint) is its own
 * cost: left alone, it would run during the next slice of the reference, slow the reference down
 * and flatter the endpoint's ratio.
 */
async function untilQuiet(pid: number): Promise<{ cpuMicros: number; busyMs: number }> {
  const started = performance.now();
  let busyCpu = 0;
  for (;;) {
    const windowStart = performance.now();
    const before = cpuMicros(pid);
    await sleep(QUIET_WINDOW_MS);
    const used = cpuMicros(pid) - before;
    // NaN (no /proc here) counts as quiet: nothing to measure with.
    // Busy for the CPU it used, at most the windows' time: a 20 ms collection of garbage counts as
    // 20 ms, not as the whole 200 ms window it fell in.
    if (!(used > (QUIET_WINDOW_MS * 1000) / 10))
      return { cpuMicros: busyCpu, busyMs: Math.min(windowStart - started, busyCpu / 1000) };
    busyCpu += used;
    if (windowStart - started > 120_000) throw new Error(`process ${pid} was still busy two minutes after its load`);
  }
}

/** Resident memory of a process in MB, from /proc/<pid>/status (VmRSS), or NaN off Linux. */
function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------- tokens

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
/** An HS256 token exactly like POST /api/auth/token issues (sub, role, ver), signed with the fixed secret. */
function mintToken(userId: number, role: 'ADMIN' | 'DONOR' | 'PATIENT'): string {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({ sub: String(userId), role, ver: 0, iat: now, exp: now + 12 * 3600 }),
  );
  const signature = crypto
    .createHmac('sha256', JWT_SECRET)
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}.${payload}.${signature}`;
}

// ---------------------------------------------------------------- the endpoints

interface Endpoint {
  name: string;
  /** `argon2`: bound by password hashing by design (sign-in, a password change): measured alone, no ratio. */
  kind: 'read' | 'write' | 'argon2';
  requests: AutocannonRequest[];
  /** Requests of its own for each connection (numbered from 0 in each run), instead of `requests`. */
  connectionRequests?: (connection: number) => AutocannonRequest[];
  /** Run after each load (warm-up and slices alike), outside the timing: puts back what a load leaves. */
  afterLoad?: () => Promise<void>;
}

/** The seeded donation sites (cli/seed-scale.ts), ids 1 to 4, each open every day 08:00-18:00. */
const SEEDED_SITES = 4;
const SEEDED_SITE_HOURS = sameHoursEveryDay({ open: '08:00', close: '18:00' });

/** Every connection cycles through these requests, so the load is spread over many accounts. */
const ACCOUNTS_PER_ENDPOINT = 200;

const BOOKING_ENDPOINT = 'POST /api/donations (book a slot + cancel)';
/** Whether --only selects an endpoint of this name (each part matches a piece of the name). */
const isSelected = (name: string) => !settings.only || settings.only.some((part) => name.includes(part));

/** A seeded donor who may book now (no booking pending, not deferred), and the date they book. */
interface Booker {
  id: number;
  authorization: string;
  date: string;
  /** The seeded sites take bookings, so each booking names a site and a free slot (PRODUCT.md 3.6). */
  siteId: number;
  slot: string;
}

/** The seeded sites' slots with free places on each date asked for, read once per date. */
function freeSlotFinder(serverUrl: string, authorization: string) {
  const cache = new Map<string, Promise<{ siteId: number; slot: string }[]>>();
  const sites = fetch(`${serverUrl}/api/sites`, { headers: { authorization } }).then(async (response) => {
    if (!response.ok) throw new Error(`GET /api/sites answered ${response.status}`);
    return ((await response.json()) as { id: number }[]).map((site) => site.id);
  });
  return (date: string) => {
    let places = cache.get(date);
    if (!places) {
      places = sites.then(async (ids) => {
        const perSite = await Promise.all(
          ids.map(async (siteId) => {
            const response = await fetch(`${serverUrl}/api/sites/${siteId}/slots?date=${date}`, { headers: { authorization } });
            if (!response.ok) throw new Error(`GET /api/sites/${siteId}/slots answered ${response.status}`);
            const slots = (await response.json()) as { time: string; available: number }[];
            return slots.filter((slot) => slot.available > 0).map((slot) => ({ siteId, slot: slot.time }));
          }),
        );
        return perSite.flat();
      });
      cache.set(date, places);
    }
    return places;
  };
}

interface DonorSummaryAnswer {
  pending: number;
  deferred: unknown;
  next_eligible_date: string | null;
  latest_donation: { id: number; status: string } | null;
}

async function donorSummary(serverUrl: string, authorization: string): Promise<DonorSummaryAnswer> {
  const response = await fetch(`${serverUrl}/api/donor/summary`, { headers: { authorization } });
  if (!response.ok) throw new Error(`GET /api/donor/summary answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as DonorSummaryAnswer;
}

/** Cancels a booking: true when cancelled, false when it was no longer pending (409). */
async function cancelBooking(serverUrl: string, authorization: string, id: number): Promise<boolean> {
  const response = await fetch(`${serverUrl}/api/donations/${id}/cancel`, { method: 'POST', headers: { authorization } });
  if (response.status === 409) return false;
  if (!response.ok)
    throw new Error(`POST /api/donations/${id}/cancel answered ${response.status}: ${await response.text()}`);
  return true;
}

/**
 * One donor per connection for the booking, so two bookings never meet (409): seeded donors past
 * those the reads use, asked for their summary, kept when nothing is pending, they are not deferred
 * and they have a next eligible date. Each books on that date, or tomorrow if it is today (a run
 * that crosses midnight must not book in the past), within the next 90 days. Each then books and
 * cancels once, so a donor who cannot is found before anything is timed.
 */
async function findBookers(serverUrl: string, seed: SeedResult, today: string, count: number): Promise<Booker[]> {
  const earliest = addDays(today, 1);
  const latest = addDays(today, BOOKING_DAYS_AHEAD - 1);
  const candidates = seed.donorIds.slice(ACCOUNTS_PER_ENDPOINT);
  const bookers: Booker[] = [];
  const freePlacesOn = freeSlotFinder(serverUrl, `Bearer ${mintToken(candidates[0]!, 'DONOR')}`);
  let booked = 0;
  const BATCH = 25;
  for (let start = 0; start < candidates.length && bookers.length < count; start += BATCH) {
    const found = await Promise.all(
      candidates.slice(start, start + BATCH).map(async (id): Promise<Booker | undefined> => {
        const authorization = `Bearer ${mintToken(id, 'DONOR')}`;
        const summary = await donorSummary(serverUrl, authorization);
        if (summary.pending !== 0 || summary.deferred !== null || summary.next_eligible_date === null) return undefined;
        const date = summary.next_eligible_date > earliest ? summary.next_eligible_date : earliest;
        if (date > latest) return undefined;
        // Spread over the day's free places, so bookers share a slot only past the sites' free places.
        const places = await freePlacesOn(date);
        const place = places[booked++ % places.length];
        return place ? { id, authorization, date, siteId: place.siteId, slot: place.slot } : undefined;
      }),
    );
    for (const booker of found) if (booker && bookers.length < count) bookers.push(booker);
  }
  if (bookers.length < count)
    throw new Error(`${BOOKING_ENDPOINT}: only ${bookers.length} seeded donors can book now, one per connection needs ${count}`);
  await Promise.all(
    bookers.map(async (booker) => {
      const [book] = bookAndCancel(booker);
      const response = await fetch(`${serverUrl}${book!.path}`, { method: 'POST', headers: book!.headers, body: book!.body });
      if (response.status !== 201)
        throw new Error(`${BOOKING_ENDPOINT}: donor ${booker.id} could not book (${response.status}): ${await response.text()}`);
      const { id } = (await response.json()) as { id: number };
      if (!(await cancelBooking(serverUrl, booker.authorization, id)))
        throw new Error(`${BOOKING_ENDPOINT}: donor ${booker.id} could not cancel booking ${id} (409)`);
    }),
  );
  return bookers;
}

/**
 * A connection's two requests: the donor books (201, its id kept in the connection's context),
 * then cancels that booking (200), and starts again. Without an id (the booking failed, counted
 * as a failure) the cancel is skipped and the connection books again.
 */
function bookAndCancel(booker: Booker): AutocannonRequest[] {
  const { authorization } = booker;
  return [
    {
      method: 'POST',
      path: '/api/donations',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ unit: 1, date: booker.date, disease: 'None', confirmation: true, site_id: booker.siteId, slot: booker.slot }),
      onResponse: (status, body, context) => {
        if (status === 201) context.donationId = (JSON.parse(body) as { id: number }).id;
      },
    },
    {
      method: 'POST',
      path: '/api/donations/:id/cancel',
      headers: { authorization },
      setupRequest: (request, context) =>
        typeof context.donationId === 'number'
          ? { ...request, path: `/api/donations/${context.donationId}/cancel` }
          : null,
    },
  ];
}

/**
 * A load stops between a booking and its cancel on some connections, and the server may still be
 * answering requests sent just before the stop (a booking, or the cancel of one). Every booker's
 * pending booking is cancelled until two checks in a row, a quarter of a second apart, find none:
 * the next load books from a clean slate.
 */
async function cancelLeftBookings(serverUrl: string, bookers: Booker[]): Promise<void> {
  let clean = 0;
  for (let pass = 0; clean < 2; pass++) {
    if (pass === 40) throw new Error(`${BOOKING_ENDPOINT}: bookings still pending after ${pass} checks`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const pending = await Promise.all(
      bookers.map(async ({ authorization }) => {
        const summary = await donorSummary(serverUrl, authorization);
        if (summary.pending === 0) return false;
        if (summary.latest_donation?.status !== 'pending')
          throw new Error(`${BOOKING_ENDPOINT}: a pending booking that is not the donor's latest`);
        // False (409) when a cancel sent before the stop got there first: the next check sees it.
        await cancelBooking(serverUrl, authorization, summary.latest_donation.id);
        return true;
      }),
    );
    clean = pending.includes(true) ? 0 : clean + 1;
  }
}

const PASSWORD_CHANGE_ENDPOINT = 'POST /api/users/me/password';
const CHANGED_PASSWORD = `${BENCH_PASSWORD}-changed`;

/** A donor whose password the benchmark changes: the session and password the last answer left. */
interface PasswordChanger {
  username: string;
  authorization: string;
  password: string;
}

const otherPassword = (password: string) => (password === BENCH_PASSWORD ? CHANGED_PASSWORD : BENCH_PASSWORD);

function changePassword(changer: PasswordChanger): AutocannonRequest[] {
  return [
    {
      method: 'POST',
      path: '/api/users/me/password',
      setupRequest: (request) => ({
        ...request,
        headers: { ...request.headers, authorization: changer.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ current_password: changer.password, new_password: otherPassword(changer.password) }),
      }),
      onResponse: (status, body) => {
        if (status !== 200) return;
        changer.authorization = `Bearer ${(JSON.parse(body) as { access_token: string }).access_token}`;
        changer.password = otherPassword(changer.password);
      },
    },
  ];
}

/**
 * A load stops with some changes sent and their answers lost: the server changed the password and
 * ended the session the changer still holds. A changer whose session is refused signs in with the
 * other password (never a wrong one, which the sign-in limits would count).
 */
async function resyncPasswordChangers(serverUrl: string, changers: PasswordChanger[]): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 250));
  for (const changer of changers) {
    const me = await fetch(`${serverUrl}/api/users/me`, { headers: { authorization: changer.authorization } });
    if (me.status === 200) continue;
    const password = otherPassword(changer.password);
    const signedIn = await fetch(`${serverUrl}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: changer.username, password }).toString(),
    });
    if (signedIn.status !== 200) throw new Error(`${PASSWORD_CHANGE_ENDPOINT}: ${changer.username} could not sign in again (${signedIn.status})`);
    changer.authorization = `Bearer ${((await signedIn.json()) as { access_token: string }).access_token}`;
    changer.password = password;
  }
}

function endpoints(seed: SeedResult, today: string, serverUrl: string, bookers: Booker[]): Endpoint[] {
  const donors = seed.donorIds
    .slice(0, ACCOUNTS_PER_ENDPOINT)
    .map((id) => `Bearer ${mintToken(id, 'DONOR')}`);
  const patients = seed.patientIds
    .slice(0, ACCOUNTS_PER_ENDPOINT)
    .map((id) => `Bearer ${mintToken(id, 'PATIENT')}`);
  const admin = `Bearer ${mintToken(seed.adminId, 'ADMIN')}`;
  const get = (pathname: string, tokens: string[]) =>
    tokens.map((authorization) => ({ method: 'GET', path: pathname, headers: { authorization } }));
  const requestBody = (index: number) =>
    JSON.stringify({
      bloodgroup: ['A+', 'O+', 'B+', 'AB-'][index % 4],
      unit: (index % 3) + 1,
      date: today,
      doctorname: 'Dr. Bench',
      hospitaladdress: 'City Hospital, 12 Park Road',
      reason: 'Scheduled surgery',
    });
  const signInUsers = seed.donorIds.slice(0, 50).map(donorUsername);
  // The last donors: none of them signs in above or holds a token of another endpoint.
  const passwordChangers: PasswordChanger[] = seed.donorIds.slice(-SIGN_IN_CONNECTIONS).map((id) => ({
    username: donorUsername(id),
    authorization: `Bearer ${mintToken(id, 'DONOR')}`,
    password: BENCH_PASSWORD,
  }));
  return [
    { name: 'GET /api/stock', kind: 'read', requests: get('/api/stock', donors) },
    // Public: the home page's supply strip, asked by every visitor without a sign-in.
    { name: 'GET /api/public/supply', kind: 'read', requests: [{ method: 'GET', path: '/api/public/supply', headers: {} }] },
    // Public: the footer's contact details, asked once by every visit.
    { name: 'GET /api/public/contact', kind: 'read', requests: [{ method: 'GET', path: '/api/public/contact', headers: {} }] },
    {
      name: 'GET /api/game/leaderboard?limit=10',
      kind: 'read',
      requests: get('/api/game/leaderboard?limit=10', donors),
    },
    { name: 'GET /api/game/state', kind: 'read', requests: get('/api/game/state', donors) },
    { name: 'GET /api/donor/summary', kind: 'read', requests: get('/api/donor/summary', donors) },
    { name: 'GET /api/patient/summary', kind: 'read', requests: get('/api/patient/summary', patients) },
    { name: 'GET /api/admin/dashboard', kind: 'read', requests: get('/api/admin/dashboard', [admin]) },
    {
      name: 'GET /api/admin/requests?status=pending',
      kind: 'read',
      requests: get('/api/admin/requests?status=pending', [admin]),
    },
    // The three runs (bookings by date, then those awaiting results, then the rest), page 1.
    { name: 'GET /api/admin/donations', kind: 'read', requests: get('/api/admin/donations', [admin]) },
    {
      name: 'GET /api/admin/donations?status=pending&due=true',
      kind: 'read',
      requests: get('/api/admin/donations?status=pending&due=true', [admin]),
    },
    // The header's bell asks every minute from every open tab.
    { name: 'GET /api/notifications', kind: 'read', requests: get('/api/notifications', donors) },
    // Tomorrow's slots of each seeded site (the booking form asks this for every date it shows).
    {
      name: 'GET /api/sites/:id/slots',
      kind: 'read',
      requests: donors.map((authorization, index) => ({
        method: 'GET',
        path: `/api/sites/${(index % SEEDED_SITES) + 1}/slots?date=${addDays(today, 1)}`,
        headers: { authorization },
      })),
    },
    // Before a site edit is saved: the bookings its calendar would cancel, here closing tomorrow
    // (staff ask it once per calendar change; decision 0025).
    {
      name: 'POST /api/admin/sites/:id/affected-bookings',
      kind: 'read',
      requests: Array.from({ length: SEEDED_SITES }, (_, index) => ({
        method: 'POST',
        path: `/api/admin/sites/${index + 1}/affected-bookings`,
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ hours: SEEDED_SITE_HOURS, closed_dates: [addDays(today, 1)] }),
      })),
    },
    {
      name: 'POST /api/requests',
      kind: 'write',
      requests: patients.map((authorization, index) => ({
        method: 'POST',
        path: '/api/requests',
        headers: { authorization, 'content-type': 'application/json' },
        body: requestBody(index),
      })),
    },
    // Each booking is cancelled by the same connection, so the pair repeats; only with bookers
    // (found when --only selects it).
    ...(bookers.length
      ? [
          {
            name: BOOKING_ENDPOINT,
            kind: 'write' as const,
            requests: bookAndCancel(bookers[0]!),
            connectionRequests: (connection: number) => bookAndCancel(bookers[connection % bookers.length]!),
            afterLoad: () => cancelLeftBookings(serverUrl, bookers),
          },
        ]
      : []),
    // Each connection is one donor changing their password back and forth with the token the
    // last change answered (the change ends every other session).
    {
      name: PASSWORD_CHANGE_ENDPOINT,
      kind: 'argon2',
      requests: changePassword(passwordChangers[0]!),
      connectionRequests: (connection: number) => changePassword(passwordChangers[connection % passwordChangers.length]!),
      afterLoad: () => resyncPasswordChangers(serverUrl, passwordChangers),
    },
    {
      name: 'POST /api/auth/token',
      kind: 'argon2',
      requests: signInUsers.map((username) => ({
        method: 'POST',
        path: '/api/auth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username, password: BENCH_PASSWORD }).toString(),
      })),
    },
  ];
}

// ---------------------------------------------------------------- measuring

interface Measurement {
  name: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  failures: number;
  peakRssMb: number;
  /** The measured server's own CPU per request: steadier than req/s when other work shares the machine. */
  cpuMicrosPerRequest: number;
  /** How long the server stayed busy after its slices with what they left (counted in rps and CPU). */
  background_ms: number;
  /** Bytes of an answer, headers included: sending them is part of the CPU a request costs. */
  bytes_per_answer: number;
}

interface Target extends Pick<Endpoint, 'requests' | 'connectionRequests' | 'afterLoad'> {
  url: string;
  pid: number | undefined;
  /** Connections for this target, when not the run's setting. */
  connections?: number;
}

/**
 * How many alternating slices each endpoint's time is cut into. This machine's speed drifts (other
 * tenants): the reference measured right beside each slice of an endpoint sees the same machine,
 * where one measured minutes earlier may not.
 */
const SLICES = 4;

/**
 * What Chromium sends on every request: the server and the reference are asked as a browser asks
 * them (the server sends a large reused answer compressed then, lib/reused-json.ts).
 */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

function loadOptions(target: Target, duration: number): AutocannonOptions {
  const { connectionRequests } = target;
  // Connections are set up one after the other as the run starts: numbered 0, 1, … in each run.
  let connection = 0;
  return {
    url: target.url,
    connections: target.connections ?? settings.connections,
    duration,
    timeout: 30,
    headers: BROWSER_HEADERS,
    requests: target.requests,
    ...(connectionRequests ? { setupClient: (client) => client.setRequests(connectionRequests(connection++)) } : {}),
  };
}

async function load(target: Target, duration: number): Promise<AutocannonResult> {
  const result = await autocannon(loadOptions(target, duration));
  await target.afterLoad?.();
  return result;
}

/** Runs of one target, slice by slice, merged into one measurement (latency histograms included). */
class Runs {
  private raws: RawAutocannonResult[] = [];
  private cpuMicros = 0;
  private peakRssMb = 0;
  /** The slices' load plus the time the server then stayed busy with what the load left. */
  private seconds = 0;
  private backgroundMs = 0;

  constructor(
    readonly name: string,
    private readonly target: Target,
  ) {}

  /** One slice; returns its requests per second. */
  async run(duration: number): Promise<number> {
    const { pid } = this.target;
    const sampler =
      pid === undefined ? undefined : setInterval(() => (this.peakRssMb = Math.max(this.peakRssMb, rssMb(pid))), 100);
    const cpuBefore = pid === undefined ? Number.NaN : cpuMicros(pid);
    const raw = await autocannon({ ...loadOptions(this.target, duration), skipAggregateResult: true });
    this.cpuMicros += pid === undefined ? Number.NaN : cpuMicros(pid) - cpuBefore;
    // The work the slice left behind counts as the slice's: its CPU, and the time it took.
    const leftBehind = pid === undefined ? { cpuMicros: 0, busyMs: 0 } : await untilQuiet(pid);
    this.cpuMicros += leftBehind.cpuMicros;
    if (sampler) clearInterval(sampler);
    if (pid !== undefined) this.peakRssMb = Math.max(this.peakRssMb, rssMb(pid));
    await this.target.afterLoad?.();
    // What the harness's own clean-up caused is nobody's: it is only kept out of the next slice.
    if (pid !== undefined && this.target.afterLoad) await untilQuiet(pid);
    const seconds = raw.duration + leftBehind.busyMs / 1000;
    this.raws.push(raw);
    this.seconds += seconds;
    this.backgroundMs += leftBehind.busyMs;
    return raw.totalCompletedRequests / seconds;
  }

  measurement(): Measurement {
    const merged = autocannon.aggregateResult(this.raws, {
      url: this.target.url,
      connections: this.target.connections ?? settings.connections,
    });
    const requests = this.raws.reduce((sum, raw) => sum + raw.totalCompletedRequests, 0);
    const { seconds } = this;
    const failures = this.raws.reduce((sum, raw) => sum + raw.non2xx + raw.errors + raw.timeouts, 0);
    const bytes = this.raws.reduce((sum, raw) => sum + raw.totalBytes, 0);
    const measurement = {
      name: this.name,
      rps: Math.round(requests / seconds),
      p50_ms: merged.latency.p50,
      p99_ms: merged.latency.p99,
      failures,
      peakRssMb: this.peakRssMb,
      cpuMicrosPerRequest: Math.round(this.cpuMicros / Math.max(1, requests)),
      background_ms: Math.round(this.backgroundMs),
      bytes_per_answer: Math.round(bytes / Math.max(1, requests)),
    };
    const background = measurement.background_ms ? `  then busy ${measurement.background_ms} ms` : '';
    const codes = failures ? `  FAILURES ${failures} status codes ${JSON.stringify(merged.statusCodeStats)}` : '';
    console.log(
      `  ${this.name.padEnd(42)} ${String(measurement.rps).padStart(7)} req/s  p50 ${measurement.p50_ms} ms  p99 ${measurement.p99_ms} ms` +
        `  ${measurement.cpuMicrosPerRequest} µs CPU/req  ${measurement.bytes_per_answer} B/answer  RSS ${Math.round(measurement.peakRssMb)} MB${background}${codes}`,
    );
    return measurement;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * One endpoint against the reference: warm-up, then SLICES rounds of the reference and the
 * endpoint side by side, each for duration / SLICES seconds, in alternating order (so a steady
 * drift favours neither). The ratio is the median of the rounds' ratios: one slice that caught
 * the machine slow does not decide it.
 */
async function measurePaired(
  name: string,
  target: Target,
  reference: Target,
): Promise<{ measurement: Measurement; ratio: number; referenceRps: number; referenceCpu: number }> {
  await load(target, warmupSeconds);
  await load(reference, 1);
  const endpointRuns = new Runs(name, target);
  const referenceRuns = new Runs('reference', reference);
  const slice = settings.duration / SLICES;
  const ratios: number[] = [];
  for (let round = 0; round < SLICES; round++) {
    let referenceRate: number;
    let endpointRate: number;
    if (round % 2 === 0) {
      referenceRate = await referenceRuns.run(slice);
      endpointRate = await endpointRuns.run(slice);
    } else {
      endpointRate = await endpointRuns.run(slice);
      referenceRate = await referenceRuns.run(slice);
    }
    ratios.push(endpointRate / referenceRate);
  }
  const measurement = endpointRuns.measurement();
  const { rps: referenceRps, cpuMicrosPerRequest: referenceCpu } = referenceRuns.measurement();
  return { measurement, ratio: median(ratios), referenceRps, referenceCpu };
}

const SIGN_IN_CONNECTIONS = LOGIN_LIMITS.perUsernameAndAddress.points;

/** An endpoint measured alone (argon2-bound: sign-in, a password change; no ratio). */
async function measureAlone(name: string, target: Target): Promise<Measurement> {
  await load(target, warmupSeconds);
  const runs = new Runs(name, target);
  await runs.run(settings.duration);
  return runs.measurement();
}

// ---------------------------------------------------------------- the database

interface PreparedDatabase {
  engine: 'sqlite' | 'postgres';
  env: NodeJS.ProcessEnv;
  seed: SeedResult;
  drop: () => Promise<void>;
}

async function prepareDatabase(dataDir: string): Promise<PreparedDatabase> {
  if (!settings.databaseUrl) {
    const seed = await seedDatabase({ sqliteFile: path.join(dataDir, 'bloodbank.db') }, settings.scale);
    return { engine: 'sqlite', env: {}, seed, drop: async () => {} };
  }
  // A fresh database next to the one DATABASE_URL names, dropped at the end.
  const name = `bench_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: settings.databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(settings.databaseUrl);
  url.pathname = `/${name}`;
  const seed = await seedDatabase({ databaseUrl: url.toString() }, settings.scale);
  return {
    engine: 'postgres',
    env: { DATABASE_URL: url.toString() },
    seed,
    drop: async () => {
      const client = new pg.Client({ connectionString: settings.databaseUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

// ---------------------------------------------------------------- the run

function build(): { web: boolean } {
  if (!settings.build) return { web: fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html')) };
  console.log('Building (npm run build) …');
  const full = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (full.status === 0) return { web: true };
  console.warn('The full build failed; building the server alone (the browser measurements are skipped).');
  const server = spawnSync('npm', ['run', 'build', '-w', '@bloodbank/server', '--silent'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (server.status !== 0) throw new Error('The server does not build.');
  return { web: false };
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: `${cpus[0]?.model ?? 'unknown'} × ${cpus.length}`,
    memory_gb: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    load_average_at_start: os.loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Writes: 0.2× the reference (issue 8), on PostgreSQL 0.15× (issue 19: there every commit is a
 * round trip to another process sharing the machine's cores).
 */
const writeTarget = (engine: PreparedDatabase['engine']) => (engine === 'postgres' ? 0.15 : 0.2);

function target(endpoint: Endpoint, engine: PreparedDatabase['engine']): string {
  if (endpoint.kind === 'argon2') return 'argon2-bound (reported alone)';
  if (endpoint.kind === 'write') return `≥ ${writeTarget(engine)}×`;
  if (endpoint.name === 'GET /api/admin/dashboard' && settings.scale >= 10) return '≥ 0.3× (scale 10)';
  return '≥ 0.5×, p99 < 20 ms';
}

function meetsTarget(
  endpoint: Endpoint,
  engine: PreparedDatabase['engine'],
  measurement: Measurement,
  ratio: number | undefined,
): boolean | undefined {
  if (measurement.failures > 0) return false;
  if (endpoint.kind === 'argon2' || ratio === undefined) return undefined;
  if (endpoint.kind === 'write') return ratio >= writeTarget(engine);
  if (endpoint.name === 'GET /api/admin/dashboard' && settings.scale >= 10) return ratio >= 0.3;
  if (settings.scale !== 1) return undefined;
  return ratio >= 0.5 && measurement.p99_ms < 20;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const { web } = build();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-bench-'));
  console.log(`Seeding at scale ${settings.scale} (${settings.databaseUrl ? 'PostgreSQL' : 'SQLite'}) …`);
  const database = await prepareDatabase(dataDir);
  const { seed } = database;
  console.log(
    `  ${Object.entries(seed.counts)
      .map(([key, value]) => `${value.toLocaleString('en')} ${key}`)
      .join(', ')} in ${seed.seconds.toFixed(1)} s`,
  );

  const [serverPort, referencePort] = [await freePort(), await freePort()];
  const server = startProcess(
    [
      ...(settings.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, 'bench/profiles')}`] : []),
      ...(settings.statementTimes ? ['--import', pathToFileURL(path.join(ROOT, 'bench/statement-times.mjs')).href] : []),
      'apps/server/dist/server.js',
    ],
    {
      PATH: process.env.PATH,
      ...database.env,
      DATA_DIR: dataDir,
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000000',
      JWT_SECRET,
      ...(web ? {} : { WEB_DIST_DIR: path.join(dataDir, 'no-web-build') }),
    },
    'server',
  );
  const reference = startProcess(
    ['bench/reference-server.mjs', String(referencePort)],
    { PATH: process.env.PATH },
    'reference',
  );
  const serverUrl = `http://127.0.0.1:${serverPort}`;
  const referenceUrl = `http://127.0.0.1:${referencePort}`;

  const measurements: { measurement: Measurement; ratio?: number; referenceRps?: number; referenceCpu?: number }[] = [];
  let idleRssMb = Number.NaN;
  let vitals: WebVitals[] | undefined;
  let selected: Endpoint[] = [];
  try {
    await Promise.all([
      waitForHttp(`${serverUrl}/api/health`, server),
      waitForHttp(`${referenceUrl}/`, reference),
    ]);
    // The server's calendar day: it runs in UTC (no TIMEZONE is passed to it).
    const today = new Date().toISOString().slice(0, 10);
    const bookers = isSelected(BOOKING_ENDPOINT)
      ? await findBookers(serverUrl, seed, today, settings.connections)
      : [];
    const all = endpoints(seed, today, serverUrl, bookers);
    selected = all.filter((endpoint) => isSelected(endpoint.name));

    // Every endpoint answers correctly before anything is timed.
    for (const endpoint of all) {
      const request = endpoint.requests[0]!;
      // Writes, and requests made per connection from what the last answer left, would change what they measure.
      if (endpoint.kind === 'write' || endpoint.connectionRequests) continue;
      const response = await fetch(`${serverUrl}${request.path}`, {
        method: request.method,
        headers: request.headers,
        ...(request.body ? { body: request.body } : {}),
      });
      if (!response.ok)
        throw new Error(`${endpoint.name} answered ${response.status}: ${await response.text()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    idleRssMb = rssMb(server.pid!);

    console.log(
      `\nLoad: ${settings.connections} connections, ${settings.duration} s per endpoint in ${SLICES} slices, ` +
        `each beside a slice of the reference (after ${warmupSeconds} s of warm-up)`,
    );
    const referenceTarget: Target = { url: referenceUrl, requests: [{ method: 'GET', path: '/' }], pid: reference.pid };
    for (const endpoint of selected.filter((candidate) => candidate.kind !== 'argon2')) {
      measurements.push(
        await measurePaired(
          endpoint.name,
          {
            url: serverUrl,
            requests: endpoint.requests,
            connectionRequests: endpoint.connectionRequests,
            afterLoad: endpoint.afterLoad,
            pid: server.pid,
          },
          referenceTarget,
        ),
      );
    }
    for (const endpoint of selected.filter((candidate) => candidate.kind === 'argon2')) {
      measurements.push({
        measurement: await measureAlone(endpoint.name, {
          url: serverUrl,
          requests: endpoint.requests,
          connectionRequests: endpoint.connectionRequests,
          afterLoad: endpoint.afterLoad,
          pid: server.pid,
          // Sign-in counts each attempt before its password is checked, so one address may have only
          // as many in flight as one account's failure limit allows (docs/security.md); five keep
          // argon2's four threads busy all the same.
          connections: SIGN_IN_CONNECTIONS,
        }),
      });
    }

    if (settings.browser && web) {
      console.log('\nWeb vitals in Chromium (LCP, CLS) …');
      try {
        vitals = await measureWebVitals(serverUrl, mintToken(seed.adminId, 'ADMIN'));
        for (const page of vitals) {
          const moved = page.shifted.map((shift) => `${shift.element} ${shift.score}`).join(', ');
          console.log(
            `  ${page.page.padEnd(42)} LCP ${page.lcp_ms} ms  CLS ${page.cls}${moved ? `  (moved most: ${moved})` : ''}`,
          );
        }
      } catch (error) {
        console.warn(`  skipped: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await Promise.all([stopProcess(server), stopProcess(reference)]);
    await database.drop();
    if (!settings.keep) fs.rmSync(dataDir, { recursive: true, force: true });
    else console.log(`Kept ${dataDir}`);
  }

  // ---- report
  const paired = measurements.filter((entry) => entry.referenceRps !== undefined);
  const referenceRps = paired.length
    ? Math.round(paired.reduce((sum, entry) => sum + entry.referenceRps!, 0) / paired.length)
    : undefined;
  const rows = measurements.map(({ measurement, ratio, referenceRps: beside }) => {
    const endpoint = selected.find((candidate) => candidate.name === measurement.name)!;
    // Checked unrounded: 0.198 does not meet 0.2 by being printed as 0.20.
    return { endpoint, measurement, beside, ratio, ok: meetsTarget(endpoint, database.engine, measurement, ratio) };
  });
  const loadRssMb = Math.max(...measurements.map((entry) => entry.measurement.peakRssMb));

  console.log(
    `\n${database.engine}, scale ${settings.scale}; reference ${referenceRps ?? '(not run)'} req/s on average ` +
      `(beside each endpoint: ${paired.map((entry) => entry.referenceRps).join(', ')}); ` +
      `ratio: the median of the ${SLICES} slices' ratios\n`,
  );
  const header = ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'reference req/s', 'ratio', 'server CPU µs/req', 'target', ''];
  const table = rows.map(({ endpoint, measurement, beside, ratio, ok }) => [
    endpoint.name,
    String(measurement.rps),
    String(measurement.p50_ms),
    String(measurement.p99_ms),
    beside === undefined ? '' : String(beside),
    ratio === undefined ? '' : `${ratio.toFixed(3)}×`,
    String(measurement.cpuMicrosPerRequest),
    target(endpoint, database.engine),
    ok === undefined ? '' : ok ? 'ok' : 'MISSED',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...table.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of table) console.log(line(row));
  console.log(
    `\nServer RSS: ${round(idleRssMb, 1)} MB idle, ${round(loadRssMb, 1)} MB peak under load (target < 300 MB)`,
  );

  const results = {
    engine: database.engine,
    scale: settings.scale,
    reference_rps: referenceRps ?? null,
    endpoints: rows.map(({ measurement, beside, ratio }) => ({
      name: measurement.name,
      rps: measurement.rps,
      p50_ms: measurement.p50_ms,
      p99_ms: measurement.p99_ms,
      ratio: ratio === undefined ? null : round(ratio, 3),
      // The reference measured beside this endpoint, which its ratio is to.
      ...(beside === undefined ? {} : { reference_rps: beside }),
    })),
    rss_mb: { idle: round(idleRssMb, 1), load: round(loadRssMb, 1) },
  };
  const context = {
    started_at: startedAt.toISOString(),
    machine: machine(),
    settings: { duration_s: settings.duration, connections: settings.connections, warmup_s: warmupSeconds },
    seed: seed.counts,
    slices_per_endpoint: SLICES,
    endpoints: measurements.map(({ measurement, referenceCpu }) => ({
      name: measurement.name,
      cpu_us_per_request: measurement.cpuMicrosPerRequest,
      reference_cpu_us_per_request: referenceCpu ?? null,
      peak_rss_mb: round(measurement.peakRssMb, 1),
      failures: measurement.failures,
    })),
    web_vitals: vitals ?? null,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  // latest.json is the last run; each engine and scale also keeps its own last run.
  const partial = settings.only !== undefined || settings.duration < 10;
  const names = partial ? ['latest'] : ['latest', `${database.engine}-scale${settings.scale}`];
  for (const name of names) {
    fs.writeFileSync(path.join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
    fs.writeFileSync(path.join(RESULTS_DIR, `${name}-context.json`), `${JSON.stringify(context, null, 2)}\n`);
  }
  console.log(
    `\nWrote ${names.map((name) => `bench/results/${name}.json`).join(' and ')} (+ -context.json: ${context.machine.cpu}, ${context.machine.node})`,
  );
  if (measurements.some((entry) => entry.measurement.failures > 0)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  stopChildren();
  process.exit(1);
});
