import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { Role } from '@bloodbank/shared/auth';
import { nowIso } from '../src/db/database';
import { hashPassword } from '../src/lib/passwords';
import { usernameKeyOf } from '../src/modules/users/users.repository';
import type { TestApp } from './test-app';

/** Test users are inserted directly (one argon2 hash per process) and given a real signed token. */
export const TEST_PASSWORD = 'password123';
let passwordHash: Promise<string> | undefined;
let sequence = 0;

export interface TestUser {
  id: number;
  username: string;
  password: string;
  role: Role;
  token: string;
  /** `{ authorization: 'Bearer …' }` for app.inject. */
  headers: { authorization: string };
}

interface UserOverrides {
  username?: string;
  first_name?: string;
  last_name?: string;
  bloodgroup?: BloodGroup;
  email?: string;
}

async function createUser(t: TestApp, role: Role, overrides: UserOverrides = {}): Promise<TestUser> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  sequence += 1;
  const username = overrides.username ?? `${role.toLowerCase()}${sequence}_${process.pid}`;
  const at = nowIso();
  const row = await t.db
    .insertInto('users')
    .values({
      username,
      username_key: usernameKeyOf(username),
      password_hash: await passwordHash,
      role,
      first_name: role === 'ADMIN' ? null : (overrides.first_name ?? 'Test'),
      last_name: role === 'ADMIN' ? null : (overrides.last_name ?? `User${sequence}`),
      email: role === 'ADMIN' ? null : (overrides.email ?? `${username}@example.org`),
      bloodgroup: role === 'ADMIN' ? null : (overrides.bloodgroup ?? 'O+'),
      address: role === 'ADMIN' ? null : '12 Test Street',
      mobile: role === 'ADMIN' ? null : '9876543210',
      profile_pic: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (role === 'PATIENT') {
    await t.db.insertInto('patients').values({ user_id: row.id, disease: 'Surgery', age: 40, doctorname: 'Dr. Rao' }).execute();
  }
  const token = await t.app.jwt.sign({ sub: String(row.id), role, ver: 0 });
  return { id: row.id, username, password: TEST_PASSWORD, role, token, headers: { authorization: `Bearer ${token}` } };
}

export const createDonor = (t: TestApp, overrides?: UserOverrides) => createUser(t, 'DONOR', overrides);
export const createPatient = (t: TestApp, overrides?: UserOverrides) => createUser(t, 'PATIENT', overrides);
export const createAdmin = (t: TestApp, overrides?: UserOverrides) => createUser(t, 'ADMIN', overrides);

/** POST /api/auth/token as the login form sends it, from `remoteAddress`. */
export const signInForm = (t: TestApp, username: string, password: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
    remoteAddress,
  });
