import autocannon from 'autocannon';
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
 * A bounded soak: the real server on loopback, 50 connections of mixed reads and writes for a few
 * seconds (SOAK_SECONDS, default 15), while admins approve requests and donors donate beside it.
 * Every valid request must get a 2xx, every acknowledged write must be stored, and the inventory's
 * invariants must hold afterwards. (Throughput is measured by `npm run bench`, not asserted here.)
 */

const SECONDS = Number(process.env.SOAK_SECONDS ?? 15);
const CONNECTIONS = 50;
const GROUPS: BloodGroup[] = ['O+', 'A+', 'B+', 'AB-'];
const INITIAL_UNITS_PER_GROUP = 100;

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
  registrationBody('soak', role, bloodgroup);

async function signUp(baseUrl: string, role: 'donor' | 'patient', bloodgroup: BloodGroup): Promise<string> {
  const body = person(role, bloodgroup);
  const registered = await call(baseUrl, 'POST', '/api/auth/register', { json: body });
  if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
  return signIn(baseUrl, body.username, body.password);
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

describe('soak', () => {
  it(
    `serves ${CONNECTIONS} connections of mixed traffic for ${SECONDS} s with no error, and the invariants hold`,
    async () => {
      server = await startServer(store);
      const { baseUrl } = server;
      const today = todayIn('UTC');
      const admin = await signIn(baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
      const patients = await Promise.all(
        Array.from({ length: 8 }, (_, i) => signUp(baseUrl, 'patient', GROUPS[i % GROUPS.length] ?? 'O+')),
      );
      const donors = await Promise.all(
        Array.from({ length: 8 }, (_, i) => signUp(baseUrl, 'donor', GROUPS[i % GROUPS.length] ?? 'O+')),
      );
      for (const bloodgroup of GROUPS) {
        const received = await call(baseUrl, 'POST', '/api/admin/units', {
          token: admin,
          json: { bloodgroup, count: INITIAL_UNITS_PER_GROUP, collected_on: today },
        });
        expect(received.status).toBe(201);
      }

      const acknowledged = {
        requests: 0,
        receivedUnits: 0,
        approvedRequests: 0,
        approvedDonations: 0,
        donatedUnits: 0,
      };
      const unexpected: string[] = [];
      const as = (token: string) => ({ authorization: `Bearer ${token}` });
      const json = { 'content-type': 'application/json' };
      const soak = autocannon({
        url: baseUrl,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [
          {
            method: 'GET',
            path: '/api/stock',
            setupRequest: (request) => ({ ...request, headers: as(pick(patients)) }),
          },
          {
            method: 'POST',
            path: '/api/requests',
            setupRequest: (request) => ({
              ...request,
              headers: { ...json, ...as(pick(patients)) },
              body: JSON.stringify({
                bloodgroup: pick(GROUPS),
                unit: 1 + Math.floor(Math.random() * 3),
                date: today,
                doctorname: 'Dr. Iyer',
                hospitaladdress: 'Metro Hospital',
                reason: 'Surgery',
              }),
            }),
            onResponse: (status) => {
              if (status === 201) acknowledged.requests += 1;
            },
          },
          {
            method: 'GET',
            path: '/api/requests/mine',
            setupRequest: (request) => ({ ...request, headers: as(pick(patients)) }),
          },
          {
            method: 'GET',
            path: '/api/patient/summary',
            setupRequest: (request) => ({ ...request, headers: as(pick(patients)) }),
          },
          {
            method: 'GET',
            path: '/api/donor/summary',
            setupRequest: (request) => ({ ...request, headers: as(pick(donors)) }),
          },
          {
            method: 'GET',
            path: '/api/game/leaderboard?limit=10',
            setupRequest: (request) => ({ ...request, headers: as(pick(donors)) }),
          },
          { method: 'GET', path: '/api/admin/dashboard', headers: as(admin) },
          {
            method: 'POST',
            path: '/api/admin/units',
            headers: { ...json, ...as(admin) },
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ bloodgroup: pick(GROUPS), count: 2, collected_on: today }),
            }),
            onResponse: (status) => {
              if (status === 201) acknowledged.receivedUnits += 2;
            },
          },
          { method: 'GET', path: '/api/admin/requests?status=pending&pageSize=20', headers: as(admin) },
          { method: 'GET', path: '/api/stats' },
        ],
      });

      // Beside the load: admins approving pending requests (two at a time, racing for the same ones)
      // and donors signing up, donating and being approved.
      let soaking = true;
      void soak.then(() => (soaking = false));
      const approver = async () => {
        while (soaking) {
          const pending = await call<{ items: { id: number }[] }>(
            baseUrl,
            'GET',
            '/api/admin/requests?status=pending&pageSize=10',
            { token: admin },
          );
          if (pending.status !== 200) unexpected.push(`list pending: ${pending.status}`);
          for (const request of pending.body.items ?? []) {
            const approved = await call(baseUrl, 'POST', `/api/admin/requests/${request.id}/approve`, {
              token: admin,
              json: {},
            });
            // 409: decided by the other approver first, or not enough stock: both correct answers.
            if (approved.status === 200) acknowledged.approvedRequests += 1;
            else if (approved.status !== 409)
              unexpected.push(`approve request: ${approved.status} ${JSON.stringify(approved.body)}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const donorFlow = async () => {
        while (soaking) {
          const bloodgroup = pick(GROUPS);
          const token = await signUp(baseUrl, 'donor', bloodgroup);
          const units = 1 + Math.floor(Math.random() * 2);
          const donation = await call<{ id: number }>(baseUrl, 'POST', '/api/donations', {
            token,
            json: { unit: units, date: today, disease: 'None', lastDonation: '', confirmation: true },
          });
          if (donation.status !== 201) {
            unexpected.push(`donate: ${donation.status}`);
            continue;
          }
          // Staff collect it and record negative results; then the donor's app picks up the reward.
          const collected = await call(baseUrl, 'POST', `/api/admin/donations/${donation.body.id}/collect`, {
            token: admin,
            json: { haemoglobin_g_dl: 13.5, weight_kg: 70, bp_systolic: 120, bp_diastolic: 80, pulse: 70 },
          });
          if (collected.status !== 200) {
            unexpected.push(`collect donation: ${collected.status}`);
            continue;
          }
          const released = await call(baseUrl, 'POST', `/api/admin/donations/${donation.body.id}/results`, {
            token: admin,
            json: { hiv: 'negative', hbv: 'negative', hcv: 'negative', syphilis: 'negative', bloodgroup },
          });
          if (released.status === 200) {
            acknowledged.approvedDonations += 1;
            acknowledged.donatedUnits += units;
          } else unexpected.push(`record results: ${released.status}`);
          const reward = await call(baseUrl, 'POST', '/api/game/donation-complete', { token });
          if (reward.status !== 200) unexpected.push(`reward: ${reward.status}`);
        }
      };
      const [result] = await Promise.all([soak, approver(), approver(), donorFlow()]);

      const served = Object.values(result.statusCodeStats).reduce(
        (sum, entry) => sum + Number(entry.count),
        0,
      );
      console.info(
        `soak (${store.engine}): ${served} requests in ${result.duration} s over ${CONNECTIONS} connections ` +
          `(avg ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms), ${result.errors} errors, ` +
          `${result.non2xx} non-2xx; beside it ${acknowledged.approvedRequests} requests and ${acknowledged.approvedDonations} donations approved`,
      );
      expect({ errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }).toEqual({
        errors: 0,
        timeouts: 0,
        non2xx: 0,
      });
      expect(Object.keys(result.statusCodeStats).every((status) => status.startsWith('2'))).toBe(true);
      expect(unexpected).toEqual([]);
      expect(served).toBeGreaterThan(CONNECTIONS * 10);

      const handle = store.open();
      try {
        const db = handle.db;
        const stock = await call<StockEntry[]>(baseUrl, 'GET', '/api/stock', { token: admin });
        expect(await findInvariantViolations(db, today, stock.body)).toEqual([]);
        // Every acknowledged write is stored. When the soak stops, autocannon drops the answers still
        // on their way (at most one per connection): those writes may be stored without our knowing.
        const count = async (table: 'blood_requests' | 'blood_units') =>
          Number(
            (
              await db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        const requests = await count('blood_requests');
        expect(requests).toBeGreaterThanOrEqual(acknowledged.requests);
        expect(requests).toBeLessThanOrEqual(acknowledged.requests + CONNECTIONS);
        const units = await count('blood_units');
        const acknowledgedUnits =
          INITIAL_UNITS_PER_GROUP * GROUPS.length + acknowledged.receivedUnits + acknowledged.donatedUnits;
        expect(units).toBeGreaterThanOrEqual(acknowledgedUnits);
        expect(units).toBeLessThanOrEqual(acknowledgedUnits + 2 * CONNECTIONS);
        const approved = await db
          .selectFrom('blood_requests')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'approved')
          .executeTakeFirstOrThrow();
        expect(Number(approved.n)).toBe(acknowledged.approvedRequests);
      } finally {
        await handle.close();
      }
    },
    (SECONDS + 90) * 1000,
  );
});
