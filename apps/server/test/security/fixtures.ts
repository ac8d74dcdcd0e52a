import fs from 'node:fs';
import { sameHoursEveryDay } from '@bloodbank/shared/sites';
import path from 'node:path';
import { sql } from 'kysely';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { addDays } from '@bloodbank/shared/dates';
import type { Database } from '../../src/db/database';
import { avatarDirectory } from '../../src/lib/uploads';
import { TINY_PNG } from '../multipart';
import type { TestApp } from '../test-app';

/** Rows written straight to the database: the states a test needs without walking every screen. */

export async function insertAvailableUnits(
  t: TestApp,
  bloodgroup: BloodGroup,
  count: number,
): Promise<number[]> {
  const today = t.clock.today();
  const at = t.clock.now().toISOString();
  const rows = await t.db
    .insertInto('blood_units')
    .values(
      Array.from({ length: count }, () => ({
        bloodgroup,
        source: 'manual' as const,
        donation_id: null,
        collected_on: today,
        expires_on: addDays(today, t.config.shelfLifeDays.red_cells),
        request_id: null,
        issued_at: null,
        discarded_at: null,
        discard_reason: null,
        created_at: at,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function insertPendingRequest(
  t: TestApp,
  patientId: number,
  options: { bloodgroup?: BloodGroup; units?: number } = {},
): Promise<number> {
  const row = await t.db
    .insertInto('blood_requests')
    .values({
      patient_id: patientId,
      bloodgroup: options.bloodgroup ?? 'O+',
      units: options.units ?? 1,
      required_date: addDays(t.clock.today(), 3),
      doctorname: 'Dr. Rao',
      hospital_address: 'General Hospital',
      reason: 'Surgery',
      status: 'pending',
      rejection_reason: null,
      issued_bloodgroup: null,
      decided_by: null,
      decided_at: null,
      created_at: t.clock.now().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertPendingDonation(
  t: TestApp,
  donorId: number,
  bloodgroup: BloodGroup = 'O+',
): Promise<number> {
  const row = await t.db
    .insertInto('donations')
    .values({
      donor_id: donorId,
      bloodgroup,
      units: 1,
      donation_date: t.clock.today(),
      disease: 'None',
      last_donation: null,
      status: 'pending',
      rejection_reason: null,
      decided_by: null,
      decided_at: null,
      created_at: t.clock.now().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A donation staff collected (its unit in testing), awaiting results. */
export async function insertCollectedDonation(t: TestApp, donorId: number): Promise<number> {
  const donationId = await insertPendingDonation(t, donorId);
  const today = t.clock.today();
  await t.db.updateTable('donations').set({ status: 'collected', collected_on: today }).where('id', '=', donationId).execute();
  await insertHeldUnit(t, donationId, 'testing');
  return donationId;
}

/** A unit of that donation, quarantined for its tests or on a lookback hold. */
export async function insertHeldUnit(t: TestApp, donationId: number, holdReason: 'testing' | 'lookback'): Promise<number> {
  const today = t.clock.today();
  const row = await t.db
    .insertInto('blood_units')
    .values({
      bloodgroup: 'O+',
      source: 'donation',
      donation_id: donationId,
      collected_on: today,
      expires_on: addDays(today, t.config.shelfLifeDays.red_cells),
      status: 'quarantined',
      hold_reason: holdReason,
      request_id: null,
      issued_at: null,
      discarded_at: null,
      discard_reason: null,
      created_at: t.clock.now().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A deferral set by hand on that donor, in force. */
export async function insertDeferral(t: TestApp, donorId: number, createdBy: number): Promise<number> {
  const row = await t.db
    .insertInto('deferrals')
    .values({
      donor_id: donorId,
      type: 'temporary',
      until: addDays(t.clock.today(), 30),
      reason: 'Travel to a malaria area',
      source: 'manual',
      donation_id: null,
      created_by: createdBy,
      created_at: t.clock.now().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Gives the user a stored profile picture, as registration with `profile_pic` would. */
export async function giveProfilePicture(t: TestApp, userId: number): Promise<void> {
  const directory = avatarDirectory(t.config.dataDir);
  fs.mkdirSync(directory, { recursive: true });
  const fileName = `test-${userId}.png`;
  fs.writeFileSync(path.join(directory, fileName), TINY_PNG);
  await t.db.updateTable('users').set({ profile_pic: fileName }).where('id', '=', userId).execute();
}

/** Every table the API writes to. */
export const WRITTEN_TABLES = [
  'users',
  'patients',
  'donations',
  'blood_requests',
  'blood_units',
  'game_profiles',
  'earned_achievements',
  'game_rewards',
  'activities',
  'audit_log',
  'deferrals',
  'donation_screenings',
  'donation_test_results',
] as const;
export type RowCounts = Record<(typeof WRITTEN_TABLES)[number], number>;

/** Row counts of every written table, in one round trip. */
export async function countRows(db: Database): Promise<RowCounts> {
  const selections = WRITTEN_TABLES.map(
    (table) => sql`(select count(*) from ${sql.table(table)}) as ${sql.ref(table)}`,
  );
  const result = await sql<Record<string, number | string>>`select ${sql.join(selections)}`.execute(db);
  const row = result.rows[0] ?? {};
  return Object.fromEntries(WRITTEN_TABLES.map((table) => [table, Number(row[table])])) as RowCounts;
}

/** Also the row contents that a refused update must leave alone (updates do not change counts). */
export async function fingerprintOfUpdatableRows(db: Database): Promise<string> {
  const [users, patients, donations, requests, units] = await Promise.all([
    db.selectFrom('users').selectAll().orderBy('id').execute(),
    db.selectFrom('patients').selectAll().orderBy('user_id').execute(),
    db.selectFrom('donations').selectAll().orderBy('id').execute(),
    db.selectFrom('blood_requests').selectAll().orderBy('id').execute(),
    db.selectFrom('blood_units').selectAll().orderBy('id').execute(),
  ]);
  return JSON.stringify({ users, patients, donations, requests, units });
}

/** A donation site open every day 08:00-16:00 (capacity 50 unless told), written directly. */
export async function insertSite(t: TestApp, options: { active?: boolean; capacity?: number } = {}): Promise<number> {
  const everyDay = { open: '08:00', close: '16:00' };
  const at = t.clock.now().toISOString();
  const row = await t.db
    .insertInto('sites')
    .values({
      name: 'Hostile Hall',
      address: '9 Fuzz Lane',
      active: options.active === false ? 0 : 1,
      hours: JSON.stringify(sameHoursEveryDay(everyDay)),
      capacity: options.capacity ?? 50,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
