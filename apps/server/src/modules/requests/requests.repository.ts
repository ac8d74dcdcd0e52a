import type { RequestStatus } from '@bloodbank/shared/blood-request';
import type { DatabaseOrTransaction } from '../../db/database';
import { preparedInsert } from '../../db/prepared-insert';
import type { BloodRequestRow } from '../../db/types';

/** Every patient's request goes through here: its SQL is compiled once (db/prepared-insert.ts). Resolves to the new id. */
export const insertBloodRequest = preparedInsert('blood_requests', [
  'patient_id',
  'bloodgroup',
  'units',
  'required_date',
  'doctorname',
  'hospital_address',
  'reason',
  'component',
  'status',
  'rejection_reason',
  'issued_bloodgroup',
  'decided_by',
  'decided_at',
  'created_at',
]);

export function findBloodRequest(
  db: DatabaseOrTransaction,
  requestId: number,
): Promise<BloodRequestRow | undefined> {
  return db.selectFrom('blood_requests').selectAll().where('id', '=', requestId).executeTakeFirst();
}

/** A patient's requests, newest first (ids grow with every insert, so they order by submission). */
export function listRequestsOfPatient(
  db: DatabaseOrTransaction,
  patientId: number,
): Promise<BloodRequestRow[]> {
  return db
    .selectFrom('blood_requests')
    .selectAll()
    .where('patient_id', '=', patientId)
    .orderBy('id', 'desc')
    .execute();
}

/**
 * The units issued to each of these requests, in one query whatever the number of requests.
 * Every request id is present in the result, with an empty list when nothing was issued to it.
 */
export async function listIssuedUnitIds(
  db: DatabaseOrTransaction,
  requestIds: readonly number[],
): Promise<Map<number, number[]>> {
  const unitIdsByRequest = new Map<number, number[]>(requestIds.map((id) => [id, []]));
  if (requestIds.length === 0) return unitIdsByRequest;
  const units = await db
    .selectFrom('blood_units')
    .select(['id', 'request_id'])
    .where('request_id', 'in', [...requestIds])
    .orderBy('id')
    .execute();
  for (const unit of units) {
    if (unit.request_id !== null) unitIdsByRequest.get(unit.request_id)?.push(unit.id);
  }
  return unitIdsByRequest;
}

/**
 * pending -> cancelled in one conditional statement: when an admin decides the request at the
 * same moment, exactly one of the two updates matches `status = 'pending'`. Undefined when this
 * one lost (or the request is not this patient's, or not pending).
 */
export function cancelPendingRequest(
  db: DatabaseOrTransaction,
  requestId: number,
  patientId: number,
  at: string,
): Promise<BloodRequestRow | undefined> {
  return (
    db
      .updateTable('blood_requests')
      // decided_at records when the request left "pending"; decided_by stays null (no admin decided it).
      .set({ status: 'cancelled', decided_at: at })
      .where('id', '=', requestId)
      .where('patient_id', '=', patientId)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst()
  );
}

/** How many of the patient's requests are in each status (statuses without requests are absent). */
export async function countRequestsByStatus(
  db: DatabaseOrTransaction,
  patientId: number,
): Promise<Partial<Record<RequestStatus, number>>> {
  const rows = await db
    .selectFrom('blood_requests')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('patient_id', '=', patientId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}
