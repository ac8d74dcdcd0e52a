import { sql, type Transaction } from 'kysely';
import type { PeopleQuery } from '@bloodbank/shared/admin';
import { COLLECTED_DONATION_STATUSES } from '@bloodbank/shared/donation';
import { normalizeMobile } from '@bloodbank/shared/auth';
import { isBloodGroup } from '@bloodbank/shared/blood-groups';
import type { DatabaseOrTransaction, Engine } from '../../db/database';
import { containsText, type TextSearch } from '../../db/contains-text';
import { lockedOnPostgres } from '../../db/row-locks';
import type { DB, UserUpdate } from '../../db/types';

export type PersonRole = 'DONOR' | 'PATIENT';

const userColumns = [
  'users.id',
  'users.username',
  'users.first_name',
  'users.last_name',
  'users.email',
  'users.bloodgroup',
  'users.address',
  'users.mobile',
  'users.is_active',
  'users.deactivated_at',
  'users.created_at',
] as const;

/** Which people a list holds: those matching a search, and active or deactivated ones only. */
interface PeopleFilter {
  search?: TextSearch | undefined;
  status?: PeopleQuery['status'];
}

/**
 * What staff type to find someone: part of a name (either name first), username or e-mail; a
 * mobile number as people write it ("98113 35999", "+91 98113 35999": stored as ten digits, as
 * registration keeps it); or a blood group ("o-").
 */
function matchingPeople(db: DatabaseOrTransaction, role: PersonRole, { search, status }: PeopleFilter) {
  let people = db.selectFrom('users').where('users.role', '=', role);
  if (status) people = people.where('users.is_active', '=', status === 'active' ? 1 : 0);
  if (search) {
    const matches = (column: string) => containsText(sql.ref(column), search);
    const typed = search.text;
    const phoneDigits = /^[\d\s().+-]+$/.test(typed) ? normalizeMobile(typed).replace(/\D/g, '') : '';
    const group = typed.trim().toUpperCase();
    people = people.where(({ or, eb }) =>
      or([
        matches('users.username'),
        matches('users.first_name'),
        matches('users.last_name'),
        matches('users.email'),
        phoneDigits ? eb('users.mobile', 'like', `%${phoneDigits}%`) : matches('users.mobile'),
        containsText(sql`users.first_name || ' ' || users.last_name`, search),
        containsText(sql`users.last_name || ' ' || users.first_name`, search),
        ...(isBloodGroup(group) ? [eb('users.bloodgroup', '=', group)] : []),
      ]),
    );
  }
  return people;
}

interface PeoplePage extends PeopleFilter {
  sort: PeopleQuery['sort'];
  order: PeopleQuery['order'];
  limit: number;
  offset: number;
}

const sortExpressions = {
  name: [sql`lower(users.first_name)`, sql`lower(users.last_name)`],
  username: [sql`users.username_key`],
  created_at: [sql`users.created_at`],
  bloodgroup: [sql`users.bloodgroup`],
} as const;

async function countPeople(db: DatabaseOrTransaction, role: PersonRole, filter: PeopleFilter) {
  const row = await matchingPeople(db, role, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * A donor's donations are those they gave blood for, as their own "Approved" counter and their game
 * count them: a booking cancelled, rejected or not yet collected is no donation (staff read 19
 * where the donor read 15).
 */
function donorsQuery(db: DatabaseOrTransaction, filter: PeopleFilter) {
  return matchingPeople(db, 'DONOR', filter)
    .select(userColumns)
    .select((eb) =>
      eb
        .selectFrom('donations')
        .select(eb.fn.countAll<number>().as('count'))
        .whereRef('donations.donor_id', '=', 'users.id')
        .where('donations.status', 'in', COLLECTED_DONATION_STATUSES)
        .as('donations'),
    );
}

function patientsQuery(db: DatabaseOrTransaction, filter: PeopleFilter) {
  return matchingPeople(db, 'PATIENT', filter)
    .innerJoin('patients', 'patients.user_id', 'users.id')
    .select(userColumns)
    .select(['patients.disease', 'patients.age', 'patients.doctorname'])
    .select((eb) =>
      eb
        .selectFrom('blood_requests')
        .select(eb.fn.countAll<number>().as('count'))
        .whereRef('blood_requests.patient_id', '=', 'users.id')
        .as('requests'),
    );
}

export type DonorRecord = Awaited<ReturnType<ReturnType<typeof donorsQuery>['executeTakeFirstOrThrow']>>;
export type PatientRecord = Awaited<ReturnType<ReturnType<typeof patientsQuery>['executeTakeFirstOrThrow']>>;

export async function listDonors(db: DatabaseOrTransaction, page: PeoplePage) {
  let query = donorsQuery(db, page);
  for (const expression of sortExpressions[page.sort]) query = query.orderBy(expression, page.order);
  const [items, total] = await Promise.all([
    query.orderBy('users.id', 'asc').limit(page.limit).offset(page.offset).execute(),
    countPeople(db, 'DONOR', page),
  ]);
  return { items, total };
}

export async function listPatients(db: DatabaseOrTransaction, page: PeoplePage) {
  let query = patientsQuery(db, page);
  for (const expression of sortExpressions[page.sort]) query = query.orderBy(expression, page.order);
  const [items, total] = await Promise.all([
    query.orderBy('users.id', 'asc').limit(page.limit).offset(page.offset).execute(),
    countPeople(db, 'PATIENT', page),
  ]);
  return { items, total };
}

export function findDonor(db: DatabaseOrTransaction, userId: number) {
  return donorsQuery(db, {}).where('users.id', '=', userId).executeTakeFirst();
}

export function findPatient(db: DatabaseOrTransaction, userId: number) {
  return patientsQuery(db, {}).where('users.id', '=', userId).executeTakeFirst();
}

/**
 * Takes the row lock an edit needs (db/row-locks.ts), so the "before" written to the audit log is
 * what this edit actually changed.
 */
export async function lockPerson(trx: Transaction<DB>, engine: Engine, role: PersonRole, userId: number): Promise<boolean> {
  const query = trx.selectFrom('users').select('id').where('id', '=', userId).where('role', '=', role);
  return (await lockedOnPostgres(query, engine).executeTakeFirst()) !== undefined;
}

export async function updatePersonFields(
  trx: Transaction<DB>,
  userId: number,
  userFields: UserUpdate,
  patientFields: { disease?: string; age?: number; doctorname?: string },
): Promise<void> {
  if (Object.keys(userFields).length > 0) {
    await trx.updateTable('users').set(userFields).where('id', '=', userId).execute();
  }
  if (Object.keys(patientFields).length > 0) {
    await trx.updateTable('patients').set(patientFields).where('user_id', '=', userId).execute();
  }
}

/** active -> inactive once; false when the account was already inactive (or is not of this role). */
export async function deactivatePerson(
  trx: Transaction<DB>,
  role: PersonRole,
  userId: number,
  at: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('users')
    .set({ is_active: 0, deactivated_at: at, updated_at: at })
    .where('id', '=', userId)
    .where('role', '=', role)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
