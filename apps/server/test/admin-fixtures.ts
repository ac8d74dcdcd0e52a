import type { Component } from '@bloodbank/shared/components';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { DonationStatus } from '@bloodbank/shared/donation';
import type { RequestStatus } from '@bloodbank/shared/blood-request';
import type { UnitStatus } from '@bloodbank/shared/admin';
import type { Database } from '../src/db/database';

/**
 * Rows for the admin tests, inserted directly so that each test states exactly the history it
 * starts from (dates, statuses, expiry) without going through other modules' rules.
 */
interface HasDb {
  db: Database;
}

export async function insertDonation(
  t: HasDb,
  donorId: number,
  fields: {
    bloodgroup?: BloodGroup;
    units?: number;
    date?: string;
    disease?: string;
    status?: DonationStatus;
    created_at?: string;
  } = {},
) {
  return t.db
    .insertInto('donations')
    .values({
      donor_id: donorId,
      bloodgroup: fields.bloodgroup ?? 'O+',
      units: fields.units ?? 1,
      donation_date: fields.date ?? '2026-03-12',
      disease: fields.disease ?? 'None',
      last_donation: null,
      status: fields.status ?? 'pending',
      rejection_reason: null,
      decided_by: null,
      decided_at: null,
      created_at: fields.created_at ?? new Date().toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertRequest(
  t: HasDb,
  patientId: number,
  fields: {
    bloodgroup?: BloodGroup;
    units?: number;
    required_date?: string;
    hospital_address?: string;
    status?: RequestStatus;
    created_at?: string;
    component?: Component;
  } = {},
) {
  return t.db
    .insertInto('blood_requests')
    .values({
      patient_id: patientId,
      bloodgroup: fields.bloodgroup ?? 'A+',
      units: fields.units ?? 1,
      required_date: fields.required_date ?? '2026-03-20',
      doctorname: 'Dr. Rao',
      hospital_address: fields.hospital_address ?? 'City Hospital, Pune',
      reason: 'Surgery',
      component: fields.component ?? 'red_cells',
      status: fields.status ?? 'pending',
      rejection_reason: null,
      issued_bloodgroup: null,
      decided_by: null,
      decided_at: null,
      created_at: fields.created_at ?? new Date().toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `count` units of one group, all expiring on `expires_on`; returns their ids in insertion order. */
export async function insertUnits(
  t: HasDb,
  fields: {
    bloodgroup: BloodGroup;
    count?: number;
    expires_on: string;
    collected_on?: string;
    donation_id?: number | null;
    status?: UnitStatus;
    component?: Component;
  },
): Promise<number[]> {
  const rows = Array.from({ length: fields.count ?? 1 }, () => ({
    bloodgroup: fields.bloodgroup,
    component: fields.component ?? 'red_cells',
    source: fields.donation_id ? ('donation' as const) : ('manual' as const),
    donation_id: fields.donation_id ?? null,
    collected_on: fields.collected_on ?? '2026-03-01',
    expires_on: fields.expires_on,
    status: fields.status ?? 'available',
    request_id: null,
    issued_at: null,
    discarded_at: fields.status === 'discarded' ? '2026-03-01T00:00:00.000Z' : null,
    discard_reason: null,
    created_at: '2026-03-01T00:00:00.000Z',
  }));
  const inserted = await t.db.insertInto('blood_units').values(rows).returning('id').execute();
  return inserted.map((row) => row.id).sort((a, b) => a - b);
}

export async function auditEntries(t: HasDb, action: string) {
  const rows = await t.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
  return rows.map((row) => ({ ...row, detail: JSON.parse(row.detail) as { before?: unknown; after?: unknown } }));
}

export async function activitiesOf(t: HasDb, userId: number) {
  return t.db
    .selectFrom('activities')
    .select(['kind', 'message'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}
