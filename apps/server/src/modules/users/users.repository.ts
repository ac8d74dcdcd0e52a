import type { Transaction } from 'kysely';
import type { Role } from '@bloodbank/shared/auth';
import type { DatabaseOrTransaction, Engine } from '../../db/database';
import { lockedOnPostgres } from '../../db/row-locks';
import type { DB, NewUser } from '../../db/types';

/** The columns a person's display name is made of (users.service.ts fullNameOf), for joins. */
export const PERSON_NAME_COLUMNS = ['users.username', 'users.first_name', 'users.last_name'] as const;

export const usernameKeyOf = (username: string) => username.trim().toLowerCase();

export function findUserForLogin(db: DatabaseOrTransaction, usernameKey: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'password_hash', 'role', 'is_active', 'token_version'])
    .where('username_key', '=', usernameKey)
    .executeTakeFirst();
}

export function usernameTaken(db: DatabaseOrTransaction, usernameKey: string) {
  return db
    .selectFrom('users')
    .select('id')
    .where('username_key', '=', usernameKey)
    .executeTakeFirst()
    .then(Boolean);
}

/** A user with their patient fields (null for donors and admins). Never selects the password hash. */
export function findUserProfile(db: DatabaseOrTransaction, userId: number) {
  return db
    .selectFrom('users')
    .leftJoin('patients', 'patients.user_id', 'users.id')
    .select([
      'users.id',
      'users.username',
      'users.role',
      'users.first_name',
      'users.last_name',
      'users.email',
      'users.bloodgroup',
      'users.address',
      'users.mobile',
      'users.profile_pic',
      'users.is_active',
      'users.created_at',
      'patients.disease',
      'patients.age',
      'patients.doctorname',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

export async function insertUser(db: DatabaseOrTransaction, user: NewUser): Promise<number> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function insertPatientDetails(
  db: DatabaseOrTransaction,
  details: { user_id: number; disease: string; age: number; doctorname: string },
): Promise<void> {
  await db.insertInto('patients').values(details).execute();
}

export async function countActiveUsers(db: DatabaseOrTransaction, role: Role): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('role', '=', role)
    .where('is_active', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The account's row, locked (db/row-locks.ts) by every write that decides from where its reset
 * links go or which sessions are alive: changing one's own e-mail address, issuing a reset link,
 * using one. Each then reads what the others committed, and takes this lock before the links'.
 */
export function lockAccount(trx: Transaction<DB>, engine: Engine, userId: number) {
  return lockedOnPostgres(
    trx.selectFrom('users').select(['id', 'username', 'first_name', 'email', 'is_active', 'token_version']).where('id', '=', userId),
    engine,
  ).executeTakeFirst();
}

/** Every reset link of the account still out stops working (its password or address changed). */
export async function endResetLinks(trx: Transaction<DB>, userId: number, at: string): Promise<void> {
  await trx.updateTable('password_resets').set({ used_at: at }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

export async function setPassword(db: DatabaseOrTransaction, userId: number, passwordHash: string, at: string) {
  // Bumping token_version signs the user out everywhere.
  await db
    .updateTable('users')
    .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1), updated_at: at }))
    .where('id', '=', userId)
    .execute();
}
