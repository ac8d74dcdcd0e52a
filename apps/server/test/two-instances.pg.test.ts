import { spawn, type ChildProcess } from 'node:child_process';
import { sameHoursEveryDay } from '@bloodbank/shared/sites';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database';
import { hashPassword } from '../src/lib/passwords';
import { usernameKeyOf } from '../src/modules/users/users.repository';
import { insertRequest, insertUnits } from './admin-fixtures';
import { onTestDatabase, testDatabaseUrl } from './test-app';
import { startSmtpServer } from './support/smtp';

/**
 * PRODUCT.md section 5: any number of server instances on one PostgreSQL never issue a unit twice.
 * Two real server processes (the production entry point, run by tsx) share one fresh schema; the
 * approvals are real HTTP requests split between them. PostgreSQL only: SQLite is one file on one
 * machine, served by one process.
 */
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/src/server.ts');
const STARTUP_TIMEOUT_MS = 60_000;
const PASSWORD = 'two-instances-secret';

interface RunningServer {
  process: ChildProcess;
  baseUrl: string;
  output: string[];
}

/** The URL of the test database with every connection's search_path set to `schema`. */
function urlForSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

function startServer(env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${STARTUP_TIMEOUT_MS} ms:\n${output.join('')}`));
    }, STARTUP_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output.push(text);
      // Fastify logs the address it really bound (PORT=0 picks a free port).
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ process: child, baseUrl: match[1], output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before listening:\n${output.join('')}`));
    });
  });
}

async function stopServer(server: RunningServer | undefined): Promise<void> {
  if (!server || server.process.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => server.process.once('exit', () => resolve()));
  server.process.kill('SIGTERM');
  const timer = setTimeout(() => server.process.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function signIn(server: RunningServer, username: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password: PASSWORD }).toString(),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe.skipIf(!testDatabaseUrl)(
  'two server processes on one PostgreSQL (runs only when TEST_DATABASE_URL is set: SQLite has no second process to share it with)',
  () => {
    const schema = `test_two_${crypto.randomBytes(6).toString('hex')}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-two-instances-'));
    let database: DatabaseHandle;
    let servers: RunningServer[] = [];
    let adminTokens: string[] = [];
    let patientId: number;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

    beforeAll(async () => {
      // Both servers send their queued e-mail to this one SMTP server.
      smtp = await startSmtpServer();
      const databaseUrl = testDatabaseUrl as string;
      await onTestDatabase(`create schema ${schema}`);
      database = openDatabase({ databaseUrl, pgSchema: schema, poolSize: 2 });
      await migrateToLatest(database.db, { pgSchema: schema });

      const passwordHash = await hashPassword(PASSWORD);
      const at = new Date().toISOString();
      const addUser = async (username: string, role: 'ADMIN' | 'PATIENT') =>
        (
          await database.db
            .insertInto('users')
            .values({
              username,
              username_key: usernameKeyOf(username),
              password_hash: passwordHash,
              role,
              first_name: role === 'PATIENT' ? 'Ravi' : null,
              last_name: role === 'PATIENT' ? 'Shah' : null,
              email: null,
              bloodgroup: role === 'PATIENT' ? 'O-' : null,
              address: null,
              mobile: null,
              profile_pic: null,
              created_at: at,
              updated_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      await addUser('admin.one', 'ADMIN');
      await addUser('admin.two', 'ADMIN');
      patientId = await addUser('ravi', 'PATIENT');
      await database.db.insertInto('patients').values({ user_id: patientId, disease: 'Surgery', age: 40, doctorname: 'Dr. Rao' }).execute();

      const env = {
        DATABASE_URL: urlForSchema(databaseUrl, schema),
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        JWT_SECRET: 'two-instances-share-this-secret-of-32-chars-or-more',
        LOG_LEVEL: 'info',
        RATE_LIMIT_MAX: '100000',
        WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      };
      // Started one after the other: both then find the schema migrated and the admins present.
      servers = [await startServer(env)];
      servers.push(await startServer(env));
      adminTokens = [await signIn(servers[0]!, 'admin.one'), await signIn(servers[1]!, 'admin.two')];
    }, 2 * STARTUP_TIMEOUT_MS + 30_000);

    afterAll(async () => {
      await Promise.all(servers.map((server) => stopServer(server)));
      await smtp?.close();
      await database?.close();
      await onTestDatabase(`drop schema if exists ${schema} cascade`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    /** Approves every request at once, alternating between the two servers and the two admins. */
    async function approveAllAtOnce(requestIds: number[]) {
      return Promise.all(
        requestIds.map(async (id, index) => {
          const server = servers[index % 2]!;
          const response = await fetch(`${server.baseUrl}/api/admin/requests/${id}/approve`, {
            method: 'POST',
            headers: { authorization: `Bearer ${adminTokens[index % 2]}`, 'content-type': 'application/json' },
            body: '{}',
          });
          return { status: response.status, body: (await response.json()) as { issued_unit_ids?: number[]; code?: string } };
        }),
      );
    }

    it('both servers answer from the same database', async () => {
      for (const server of servers) {
        const response = await fetch(`${server.baseUrl}/api/health`);
        expect(await response.json()).toEqual({ status: 'ok', db: 'ok' });
      }
    });

    it('issues each unit once: exactly as many of 24 parallel approvals succeed as there were units', async () => {
      const UNITS = 6;
      const unitIds = await insertUnits(database, { bloodgroup: 'O-', count: UNITS, expires_on: '2999-12-31' });
      const requestIds: number[] = [];
      for (let index = 0; index < 24; index += 1) {
        requestIds.push((await insertRequest(database, patientId, { bloodgroup: 'O-', units: 1 })).id);
      }

      const results = await approveAllAtOnce(requestIds);
      const succeeded = results.filter((result) => result.status === 200);
      expect(succeeded).toHaveLength(UNITS);
      expect(results.filter((result) => result.status === 409 && result.body.code === 'insufficient_stock')).toHaveLength(24 - UNITS);

      const issued = succeeded.flatMap((result) => result.body.issued_unit_ids ?? []);
      expect([...issued].sort((a, b) => a - b)).toEqual(unitIds);
      const rows = await database.db
        .selectFrom('blood_units')
        .select(['id', 'status', 'request_id'])
        .where('id', 'in', unitIds)
        .execute();
      expect(rows.every((row) => row.status === 'issued')).toBe(true);
      expect(new Set(rows.map((row) => row.request_id)).size).toBe(UNITS);
      const approved = await database.db.selectFrom('blood_requests').select('id').where('status', '=', 'approved').execute();
      expect(approved).toHaveLength(UNITS);
    }, 60_000);

    it('never issues more units than the stock when multi-unit requests compete across both servers', async () => {
      const unitIds = await insertUnits(database, { bloodgroup: 'O-', count: 10, expires_on: '2999-12-31' });
      const requestIds: number[] = [];
      for (let index = 0; index < 20; index += 1) {
        requestIds.push((await insertRequest(database, patientId, { bloodgroup: 'O-', units: 3 })).id);
      }
      const results = await approveAllAtOnce(requestIds);
      const succeeded = results.filter((result) => result.status === 200);
      expect(results.every((result) => result.status === 200 || result.status === 409)).toBe(true);
      // 10 units serve three requests of 3; one unit is left over.
      expect(succeeded).toHaveLength(3);
      expect(results.filter((result) => result.status === 409)).toHaveLength(17);

      const issued = succeeded.flatMap((result) => result.body.issued_unit_ids ?? []);
      expect(issued).toHaveLength(succeeded.length * 3);
      expect(new Set(issued).size).toBe(issued.length);
      const rows = await database.db.selectFrom('blood_units').select(['status', 'request_id']).where('id', 'in', unitIds).execute();
      expect(rows.filter((row) => row.status === 'issued')).toHaveLength(issued.length);
      expect(rows.filter((row) => row.status === 'available')).toHaveLength(10 - issued.length);
    }, 60_000);
      it('issues plasma once: of 20 parallel plasma approvals across both servers, as many succeed as there are plasma units', async () => {
      const unitIds = await insertUnits(database, { bloodgroup: 'AB-', component: 'plasma', count: 4, expires_on: '2999-12-31' });
      // Red cells of the same group must not be taken for a plasma request.
      await insertUnits(database, { bloodgroup: 'AB-', count: 10, expires_on: '2999-12-31' });
      const requestIds: number[] = [];
      for (let index = 0; index < 20; index += 1) {
        requestIds.push((await insertRequest(database, patientId, { bloodgroup: 'O-', units: 1, component: 'plasma' })).id);
      }
      // AB plasma may go to an O- patient (PRODUCT.md 3.3): approved from AB-.
      const results = await Promise.all(
        requestIds.map(async (id, index) => {
          const server = servers[index % 2]!;
          const response = await fetch(`${server.baseUrl}/api/admin/requests/${id}/approve`, {
            method: 'POST',
            headers: { authorization: `Bearer ${adminTokens[index % 2]}`, 'content-type': 'application/json' },
            body: JSON.stringify({ bloodgroup: 'AB-' }),
          });
          return { status: response.status, body: (await response.json()) as { issued_unit_ids?: number[] } };
        }),
      );
      const issued = results.filter((result) => result.status === 200).flatMap((result) => result.body.issued_unit_ids ?? []);
      expect([...issued].sort((a, b) => a - b)).toEqual(unitIds);
      expect(results.filter((result) => result.status === 409)).toHaveLength(16);
    }, 60_000);

    it('records a collection and its results once when two staff on two servers record them at the same moment', async () => {
      // Ten bookings due today, one after the other (one pending per donor), each collected and then
      // tested by both servers at once.
      const at = new Date().toISOString();
      const today = at.slice(0, 10);
      const donorId = (
        await database.db
          .insertInto('users')
          .values({
            username: 'donor.race',
            username_key: 'donor.race',
            password_hash: 'not-used',
            role: 'DONOR',
            first_name: 'Asha',
            last_name: 'Race',
            email: null,
            bloodgroup: 'B+',
            address: null,
            mobile: null,
            profile_pic: null,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const both = (path: string, body: object) =>
        Promise.all(
          servers.map(async (server, index) => {
            const response = await fetch(`${server.baseUrl}${path}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${adminTokens[index]}`, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            return response.status;
          }),
        );
      for (let round = 0; round < 10; round += 1) {
        const { id } = await database.db
          .insertInto('donations')
          .values({
            donor_id: donorId,
            bloodgroup: 'B+',
            units: 1,
            donation_date: today,
            disease: 'None',
            last_donation: null,
            status: 'pending',
            rejection_reason: null,
            decided_by: null,
            decided_at: null,
            created_at: at,
            collected_on: null,
            outcome_reason: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const collected = await both(`/api/admin/donations/${id}/collect`, {
          haemoglobin_g_dl: 13.5,
          weight_kg: 70,
          bp_systolic: 120,
          bp_diastolic: 80,
          pulse: 70,
        });
        expect(collected.sort()).toEqual([200, 409]);
        const tested = await both(`/api/admin/donations/${id}/results`, {
          hiv: 'negative',
          hbv: 'negative',
          hcv: 'negative',
          syphilis: 'negative',
          bloodgroup: 'B+',
        });
        expect(tested.sort()).toEqual([200, 409]);
        const units = await database.db.selectFrom('blood_units').select('status').where('donation_id', '=', id).execute();
        expect(units).toEqual([{ status: 'available' }]);
      }
      const rewards = await database.db.selectFrom('game_rewards').select('donation_id').where('donor_id', '=', donorId).execute();
      expect(rewards).toHaveLength(10);
    }, 60_000);

    it('holds each place of a slot once: of twenty bookings of a 2-place slot split between both servers, exactly 2 succeed', async () => {
      const created = await fetch(`${servers[0]!.baseUrl}/api/admin/sites`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminTokens[0]}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Race Hall',
          address: '2 Station Road',
          hours: sameHoursEveryDay({ open: '08:00', close: '12:00' }),
          capacity: 2,
        }),
      });
      expect(created.status).toBe(201);
      const site = (await created.json()) as { id: number };
      // Tomorrow by the servers' clock (TIMEZONE defaults to UTC).
      const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

      const passwordHash = await hashPassword(PASSWORD);
      const at = new Date().toISOString();
      const donors = await database.db
        .insertInto('users')
        .values(
          Array.from({ length: 20 }, (_, index) => ({
            username: `slot.donor.${index}`,
            username_key: `slot.donor.${index}`,
            password_hash: passwordHash,
            role: 'DONOR' as const,
            first_name: 'Slot',
            last_name: `Donor ${index}`,
            email: null,
            bloodgroup: 'A+' as const,
            address: null,
            mobile: null,
            profile_pic: null,
            created_at: at,
            updated_at: at,
          })),
        )
        .returning('username')
        .execute();
      const tokens = await Promise.all(donors.map((donor, index) => signIn(servers[index % 2]!, donor.username)));

      const statuses = await Promise.all(
        tokens.map(async (token, index) => {
          const response = await fetch(`${servers[index % 2]!.baseUrl}/api/donations`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ unit: 1, date: tomorrow, disease: 'None', confirmation: true, site_id: site.id, slot: '09:00' }),
          });
          return response.status;
        }),
      );
      expect(statuses.filter((status) => status === 201)).toHaveLength(2);
      expect(statuses.filter((status) => status === 409)).toHaveLength(18);
      const held = await database.db
        .selectFrom('donations')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('site_id', '=', site.id)
        .where('slot', '=', '09:00')
        .executeTakeFirstOrThrow();
      expect(Number(held.count)).toBe(2);
    }, 60_000);

    it('sends each queued e-mail once and runs the daily work once, with both servers working the queue', async () => {
      // Both servers ran their daily work when they started: one of them claimed today.
      const runs = await database.db.selectFrom('daily_runs').select('day').execute();
      expect(runs).toHaveLength(1);

      // Twenty messages at once, queued through both servers: staff defer twenty donors by hand.
      const at = new Date().toISOString();
      const donors = await database.db
        .insertInto('users')
        .values(
          Array.from({ length: 20 }, (_, index) => ({
            username: `mail.donor.${index}`,
            username_key: `mail.donor.${index}`,
            password_hash: 'not-used',
            role: 'DONOR' as const,
            first_name: 'Mail',
            last_name: `Donor ${index}`,
            email: `mail.donor.${index}@example.org`,
            bloodgroup: 'B-' as const,
            address: null,
            mobile: null,
            profile_pic: null,
            created_at: at,
            updated_at: at,
          })),
        )
        .returning('id')
        .execute();
      smtp.received.length = 0;
      const statuses = await Promise.all(
        donors.map(async ({ id }, index) => {
          const response = await fetch(`${servers[index % 2]!.baseUrl}/api/admin/donors/${id}/deferrals`, {
            method: 'POST',
            headers: { authorization: `Bearer ${adminTokens[index % 2]}`, 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'permanent', reason: 'Test of the queue' }),
          });
          return response.status;
        }),
      );
      expect(statuses.every((status) => status === 201)).toBe(true);

      // Both workers poll every second; wait until all twenty have arrived, then a little longer for duplicates.
      const deadline = Date.now() + 20_000;
      while (smtp.received.length < 20 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const recipients = smtp.received.map((mail) => mail.to[0]).sort();
      expect(recipients).toEqual(donors.map((_, index) => `mail.donor.${index}@example.org`).sort());
      const queued = await database.db.selectFrom('jobs').select(['done_at']).where('done_at', 'is', null).execute();
      expect(queued).toEqual([]);
    }, 60_000);
  },
);
