import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { StockEntry } from '@bloodbank/shared/blood-request';
import { todayIn } from '@bloodbank/shared/dates';
import { findInvariantViolations } from './invariants';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  call,
  createServerStore,
  signIn,
  startServer,
  type ServerProcess,
  type ServerStore,
  registrationBody,
} from './server-process';

/**
 * The real server in its own process takes a stream of writes, and is killed with SIGKILL in the
 * middle of it: no chance to flush or close anything. Restarted on the same data, every write it
 * had acknowledged (answered 2xx) must be there, the database must be sound, and the inventory's
 * invariants must hold. A SIGTERM, on the other hand, lets the requests in flight finish.
 */

const GROUPS: BloodGroup[] = ['O+', 'A+', 'B-'];
const WORKERS = 6;

/** What the server acknowledged: the state each write must be found in after the crash. */
interface Ledger {
  users: { username: string; role: 'DONOR' | 'PATIENT' }[];
  donations: Map<number, { units: number; approvedUnitIds?: number[] }>;
  receivedUnitIds: number[];
  requests: Map<number, { units: number; issuedUnitIds?: number[] }>;
  acknowledged: number;
}

let store: ServerStore;
let server: ServerProcess | undefined;

beforeAll(async () => {
  store = await createServerStore();
});
afterAll(async () => {
  await server?.kill('SIGKILL');
  await store.remove();
});

const person = (role: 'donor' | 'patient', bloodgroup: BloodGroup) =>
  registrationBody('crash', role, bloodgroup);

/** One worker: donor signs up, donates, gets approved; stock arrives; patient signs up, requests, gets approved. */
async function runWorker(
  baseUrl: string,
  adminToken: string,
  worker: number,
  ledger: Ledger,
  stop: { now: boolean },
) {
  const today = todayIn('UTC');
  const ack = () => (ledger.acknowledged += 1);
  for (let round = 0; !stop.now; round += 1) {
    const group = GROUPS[(worker + round) % GROUPS.length] ?? 'O+';

    const donor = person('donor', group);
    const registered = await call(baseUrl, 'POST', '/api/auth/register', { json: donor });
    if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
    ledger.users.push({ username: donor.username, role: 'DONOR' });
    ack();
    const donorToken = await signIn(baseUrl, donor.username, donor.password);

    const units = 1 + (round % 2);
    const donation = await call<{ id: number }>(baseUrl, 'POST', '/api/donations', {
      token: donorToken,
      json: { unit: units, date: today, disease: 'None', lastDonation: '', confirmation: true },
    });
    if (donation.status !== 201)
      throw new Error(`donate: ${donation.status} ${JSON.stringify(donation.body)}`);
    ledger.donations.set(donation.body.id, { units });
    ack();

    // Staff collect it (units quarantined) and record negative results (units become stock).
    const collected = await call<{ status: string; unit_ids: number[] }>(
      baseUrl,
      'POST',
      `/api/admin/donations/${donation.body.id}/collect`,
      { token: adminToken, json: { haemoglobin_g_dl: 13.5, weight_kg: 70, bp_systolic: 120, bp_diastolic: 80, pulse: 70 } },
    );
    if (collected.status !== 200 || collected.body.status !== 'collected')
      throw new Error(`collect donation: ${collected.status} ${JSON.stringify(collected.body)}`);
    const released = await call<{ status: string; unit_ids: number[] }>(
      baseUrl,
      'POST',
      `/api/admin/donations/${donation.body.id}/results`,
      { token: adminToken, json: { hiv: 'negative', hbv: 'negative', hcv: 'negative', syphilis: 'negative', bloodgroup: group } },
    );
    if (released.status !== 200 || released.body.status !== 'released')
      throw new Error(`record results: ${released.status} ${JSON.stringify(released.body)}`);
    ledger.donations.set(donation.body.id, { units, approvedUnitIds: released.body.unit_ids });
    ack();

    const received = await call<{ units: { id: number }[] }>(baseUrl, 'POST', '/api/admin/units', {
      token: adminToken,
      json: { bloodgroup: group, count: 2, collected_on: today },
    });
    if (received.status !== 201)
      throw new Error(`receive: ${received.status} ${JSON.stringify(received.body)}`);
    ledger.receivedUnitIds.push(...received.body.units.map((unit) => unit.id));
    ack();

    const patient = person('patient', group);
    const patientRegistered = await call(baseUrl, 'POST', '/api/auth/register', { json: patient });
    if (patientRegistered.status !== 201) throw new Error(`register patient: ${patientRegistered.status}`);
    ledger.users.push({ username: patient.username, role: 'PATIENT' });
    ack();
    const patientToken = await signIn(baseUrl, patient.username, patient.password);

    const wanted = 1 + (round % 3);
    const request = await call<{ id: number }>(baseUrl, 'POST', '/api/requests', {
      token: patientToken,
      json: {
        bloodgroup: group,
        unit: wanted,
        date: today,
        doctorname: 'Dr. Das',
        hospitaladdress: 'City Hospital',
        reason: 'Accident',
      },
    });
    if (request.status !== 201) throw new Error(`request: ${request.status} ${JSON.stringify(request.body)}`);
    ledger.requests.set(request.body.id, { units: wanted });
    ack();

    const issued = await call<{ issued_unit_ids: number[] }>(
      baseUrl,
      'POST',
      `/api/admin/requests/${request.body.id}/approve`,
      {
        token: adminToken,
        json: {},
      },
    );
    // 409 (not enough stock) is a refusal, not a write; anything else is a failure of the test.
    if (issued.status === 200) {
      ledger.requests.set(request.body.id, { units: wanted, issuedUnitIds: issued.body.issued_unit_ids });
      ack();
    } else if (issued.status !== 409) {
      throw new Error(`approve request: ${issued.status} ${JSON.stringify(issued.body)}`);
    }
  }
}

const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

describe('crash safety', () => {
  it('keeps every acknowledged write through a SIGKILL mid-stream, and stays sound', async () => {
    server = await startServer(store);
    const first = server;
    const adminToken = await signIn(first.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    const ledger: Ledger = {
      users: [],
      donations: new Map(),
      receivedUnitIds: [],
      requests: new Map(),
      acknowledged: 0,
    };
    const stop = { now: false };
    // Each worker ends with the error that stopped it (caught at once: the kill makes them all fail).
    const workers = Array.from({ length: WORKERS }, (_, worker) =>
      runWorker(first.baseUrl, adminToken, worker, ledger, stop).then(
        () => undefined,
        (error: unknown) => error,
      ),
    );

    // Kill once a good number of writes went through (or after a while), with writes still in flight.
    const started = Date.now();
    while (ledger.acknowledged < 80 && Date.now() - started < 8_000)
      await new Promise((resolve) => setTimeout(resolve, 25));
    const killed = await first.kill('SIGKILL');
    stop.now = true;
    const stoppedBy = await Promise.all(workers);
    expect(killed.signal).toBe('SIGKILL');
    // Every worker was cut off by the kill (a connection error), never by a refused valid write.
    for (const error of stoppedBy) {
      if (error !== undefined)
        expect(String(error), first.output()).toMatch(/fetch failed|terminated|other side closed|ECONNRESET/);
    }
    expect(ledger.acknowledged).toBeGreaterThanOrEqual(20);

    // The file as the kill left it (SQLite replays its write-ahead log on open).
    expect(store.integrityCheck() ?? 'ok').toBe('ok');

    server = await startServer(store);
    const second = server;
    const handle = store.open();
    try {
      const db = handle.db;
      const users = await db.selectFrom('users').select(['username', 'role', 'is_active']).execute();
      const byName = new Map(users.map((user) => [user.username, user]));
      const missingUsers = ledger.users.filter((user) => byName.get(user.username)?.role !== user.role);
      expect(missingUsers).toEqual([]);

      const donations = new Map(
        (await db.selectFrom('donations').select(['id', 'status', 'units']).execute()).map((row) => [
          row.id,
          row,
        ]),
      );
      const units = await db
        .selectFrom('blood_units')
        .select(['id', 'donation_id', 'request_id', 'status'])
        .execute();
      const lostDonations: string[] = [];
      for (const [id, expected] of ledger.donations) {
        const row = donations.get(id);
        if (!row || row.units !== expected.units) lostDonations.push(`donation ${id} missing`);
        else if (expected.approvedUnitIds) {
          const stored = units.filter((unit) => unit.donation_id === id).map((unit) => unit.id);
          if (
            row.status !== 'released' ||
            JSON.stringify(sorted(stored)) !== JSON.stringify(sorted(expected.approvedUnitIds))
          ) {
            lostDonations.push(
              `donation ${id}: ${row.status} with units ${stored.join(',')}, acknowledged ${expected.approvedUnitIds.join(',')}`,
            );
          }
        }
      }
      expect(lostDonations).toEqual([]);

      const unitIds = new Set(units.map((unit) => unit.id));
      expect(ledger.receivedUnitIds.filter((id) => !unitIds.has(id))).toEqual([]);

      const requests = new Map(
        (await db.selectFrom('blood_requests').select(['id', 'status', 'units']).execute()).map((row) => [
          row.id,
          row,
        ]),
      );
      const lostRequests: string[] = [];
      for (const [id, expected] of ledger.requests) {
        const row = requests.get(id);
        if (!row || row.units !== expected.units) lostRequests.push(`request ${id} missing`);
        else if (expected.issuedUnitIds) {
          const stored = units
            .filter((unit) => unit.request_id === id && unit.status === 'issued')
            .map((unit) => unit.id);
          if (
            row.status !== 'approved' ||
            JSON.stringify(sorted(stored)) !== JSON.stringify(sorted(expected.issuedUnitIds))
          ) {
            lostRequests.push(
              `request ${id}: ${row.status} with units ${stored.join(',')}, acknowledged ${expected.issuedUnitIds.join(',')}`,
            );
          }
        }
      }
      expect(lostRequests).toEqual([]);

      // The restarted server: the admin's token from before the crash still works (the signing
      // secret was kept in DATA_DIR), the stock it reports matches the units, and it takes writes.
      const stock = await call<StockEntry[]>(second.baseUrl, 'GET', '/api/stock', { token: adminToken });
      expect(stock.status).toBe(200);
      expect(await findInvariantViolations(db, todayIn('UTC'), stock.body)).toEqual([]);
      const someone = ledger.users.at(-1);
      if (someone) expect(await signIn(second.baseUrl, someone.username, 'crash-test-password')).toBeTruthy();
      const after = await call(second.baseUrl, 'POST', '/api/auth/register', { json: person('donor', 'O+') });
      expect(after.status).toBe(201);

      console.info(
        `crash safety (${store.engine}): ${ledger.acknowledged} writes acknowledged before SIGKILL ` +
          `(${ledger.users.length} accounts, ${ledger.donations.size} donations, ${ledger.receivedUnitIds.length} received units, ` +
          `${ledger.requests.size} requests, ${[...ledger.requests.values()].filter((r) => r.issuedUnitIds).length} approved), all found after restart`,
      );
    } finally {
      await handle.close();
      await second.kill('SIGTERM');
    }
    // Two server starts and a stream of writes: more than the default 30 s on a loaded machine.
  }, 60_000);

  it('on SIGTERM, finishes the requests in flight before exiting', async () => {
    // Info logs show each request as the server takes it in, so the signal comes once all are in its hands.
    server = await startServer(store, { LOG_LEVEL: 'info' });
    const current = server;
    const takenIn = () =>
      current
        .output()
        .split('\n')
        .filter((line) => line.includes('"url":"/api/auth/register"')).length;
    // Registrations hash a password with argon2id: enough of them queue up to be in flight when the signal comes.
    const bodies = Array.from({ length: 48 }, () => person('donor', 'A+'));
    let signalledAt = Number.POSITIVE_INFINITY;
    const inFlight = bodies.map((body) =>
      call(current.baseUrl, 'POST', '/api/auth/register', { json: body }).then(
        (response) => ({ status: response.status, afterSignal: Date.now() > signalledAt }),
        (error: unknown) => ({
          status: String(error instanceof Error ? (error.cause ?? error) : error),
          afterSignal: true,
        }),
      ),
    );
    const deadline = Date.now() + 10_000;
    while (takenIn() < bodies.length && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(takenIn()).toBe(bodies.length);
    signalledAt = Date.now();
    const exit = current.kill('SIGTERM');
    const responses = await Promise.all(inFlight);
    expect(
      responses.map((response) => response.status),
      current.output(),
    ).toEqual(bodies.map(() => 201));
    // Not a vacuous pass: some of them were still being served when the signal came.
    expect(responses.filter((response) => response.afterSignal).length).toBeGreaterThan(0);
    expect((await exit).code, current.output()).toBe(0);
    // No new connection is taken once it is gone.
    await expect(fetch(`${current.baseUrl}/api/health`)).rejects.toThrow();

    const handle = store.open();
    try {
      const stored = await handle.db
        .selectFrom('users')
        .select('username')
        .where(
          'username',
          'in',
          bodies.map((body) => body.username),
        )
        .execute();
      expect(stored.length).toBe(bodies.length);
    } finally {
      await handle.close();
    }
  });
});
