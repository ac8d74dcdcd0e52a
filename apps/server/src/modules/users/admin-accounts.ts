import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import { nowIso, type Database } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { hashPassword } from '../../lib/passwords';
import { recordAudit } from '../audit/audit.repository';
import { insertUser, setPassword, usernameKeyOf } from './users.repository';

export const INITIAL_ADMIN_PASSWORD_FILE = 'initial-admin-password.txt';

export type AdminBootstrapResult =
  | { kind: 'exists' }
  | { kind: 'created-from-env'; username: string }
  | { kind: 'created-random'; username: string; password: string; passwordFile: string };

/**
 * First start with no admin: ADMIN_USERNAME/ADMIN_PASSWORD when given, otherwise `admin` with a
 * random password written once to DATA_DIR (mode 600). Admins are never self-registered.
 */
export async function ensureInitialAdmin(db: Database, config: Config): Promise<AdminBootstrapResult> {
  const existing = await db.selectFrom('users').select('id').where('role', '=', 'ADMIN').executeTakeFirst();
  if (existing) return { kind: 'exists' };

  const fromEnv = Boolean(config.adminUsername && config.adminPassword);
  const username = fromEnv ? (config.adminUsername as string) : 'admin';
  const password = fromEnv ? (config.adminPassword as string) : crypto.randomBytes(12).toString('base64url');
  try {
    await createAdmin(db, username, password);
  } catch (error) {
    // Another instance created it at the same moment.
    if (isUniqueViolation(error)) return { kind: 'exists' };
    throw error;
  }
  if (fromEnv) return { kind: 'created-from-env', username };

  fs.mkdirSync(config.dataDir, { recursive: true });
  const passwordFile = path.join(config.dataDir, INITIAL_ADMIN_PASSWORD_FILE);
  fs.writeFileSync(passwordFile, `username: ${username}\npassword: ${password}\n`, { mode: 0o600 });
  return { kind: 'created-random', username, password, passwordFile };
}

/** `at` is now, but for the demo seed, whose admin exists from the start of its history. */
export async function createAdmin(db: Database, username: string, password: string, at = nowIso()): Promise<number> {
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const id = await insertUser(trx, {
      username,
      username_key: usernameKeyOf(username),
      password_hash: passwordHash,
      role: 'ADMIN',
      first_name: null,
      last_name: null,
      email: null,
      bloodgroup: null,
      address: null,
      mobile: null,
      profile_pic: null,
      created_at: at,
      updated_at: at,
    });
    await recordAudit(trx, {
      actorId: null,
      actor: 'system',
      action: 'admin.create',
      entity: 'user',
      entityId: id,
      after: { username, role: 'ADMIN' },
      at,
    });
    return id;
  });
}

/** Resets any user's password and signs them out everywhere. */
export async function resetPassword(db: Database, username: string, password: string): Promise<boolean> {
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('username_key', '=', usernameKeyOf(username))
    .executeTakeFirst();
  if (!user) return false;
  const at = nowIso();
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await setPassword(trx, user.id, passwordHash, at);
    await recordAudit(trx, { actorId: null, actor: 'system', action: 'user.password_reset', entity: 'user', entityId: user.id, at });
  });
  return true;
}
