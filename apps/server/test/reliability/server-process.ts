import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type Engine } from '../../src/db/database';
import { SQLITE_FILE_NAME } from '../../src/db/open-from-config';
import { testDatabaseUrl } from '../test-app';

/**
 * The real server (src/server.ts) as a child process on 127.0.0.1, the way it runs in production:
 * its own process, its own port, its data in a store that outlives it (a DATA_DIR with the SQLite
 * file, or a PostgreSQL database of its own when TEST_DATABASE_URL is set).
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/src/server.ts');

export const ADMIN_USERNAME = 'reliability-admin';
export const ADMIN_PASSWORD = 'reliability-admin-password';

export interface ServerStore {
  engine: Engine;
  dataDir: string;
  env: Record<string, string>;
  /** A connection of the test's own to the same data. */
  open(): DatabaseHandle;
  /** SQLite's own check of the file ('ok' when sound); undefined on PostgreSQL. */
  integrityCheck(): string | undefined;
  remove(): Promise<void>;
}

export async function createServerStore(): Promise<ServerStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-reliability-'));
  if (!testDatabaseUrl) {
    const file = path.join(dataDir, SQLITE_FILE_NAME);
    return {
      engine: 'sqlite',
      dataDir,
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ sqliteFile: file }),
      integrityCheck: () => {
        const sqlite = new SQLite(file, { fileMustExist: true });
        try {
          const integrity = String(sqlite.pragma('integrity_check', { simple: true }));
          const foreignKeys = sqlite.pragma('foreign_key_check') as unknown[];
          return foreignKeys.length === 0
            ? integrity
            : `foreign key violations: ${JSON.stringify(foreignKeys)}`;
        } finally {
          sqlite.close();
        }
      },
      remove: () => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })),
    };
  }
  // A database of its own, so that the child's migrations run as they would on a fresh install.
  const name = `bloodbank_reliability_${crypto.randomBytes(5).toString('hex')}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    engine: 'postgres',
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    open: () => openDatabase({ databaseUrl, poolSize: 3 }),
    integrityCheck: () => undefined,
    remove: async () => {
      await withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function withAdminClient(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** What the server wrote to stdout and stderr (shown when a test fails). */
  output(): string;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();
/** Last resort, for a test that failed before its own cleanup: no server outlives the test run. */
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startServer(
  store: ServerStore,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
      RATE_LIMIT_MAX: '1000000',
      WEB_DIST_DIR: path.join(store.dataDir, 'no-web-build'),
      ...store.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    baseUrl,
    child,
    output: () => output,
    exited,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };

  const deadline = Date.now() + 30_000;
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));
  while (Date.now() < deadline && !exitedEarly) {
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.kill('SIGKILL');
  throw new Error(`the server did not start:\n${output}`);
}

/** JSON over HTTP to a server process; `ok` is the acknowledgement (2xx). */
export async function call<T = unknown>(
  baseUrl: string,
  method: string,
  url: string,
  options: { token?: string; json?: unknown; form?: Record<string, string> } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const response = await call<{ access_token: string }>(baseUrl, 'POST', '/api/auth/token', {
    form: { username, password },
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${username} failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.access_token;
}

let registrationSequence = 0;
/** A valid registration body with a username unique within this process (prefix names the test). */
export function registrationBody(prefix: string, role: 'donor' | 'patient', bloodgroup: BloodGroup) {
  registrationSequence += 1;
  const n = registrationSequence;
  return {
    user_type: role,
    username: `${prefix}_${role}_${n}`,
    password: `${prefix}-test-password`,
    first_name: 'Kavya',
    last_name: `Nair${n}`,
    email: `${prefix}${n}@example.org`,
    bloodgroup,
    address: '5 Lake View',
    mobile: '9876543210',
    ...(role === 'patient' ? { disease: 'Accident', age: 29, doctorname: 'Dr. Das' } : {}),
  };
}
