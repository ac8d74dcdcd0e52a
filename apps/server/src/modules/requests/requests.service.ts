import type {
  BloodRequest,
  BloodRequestInput,
  PatientSummary,
} from '@bloodbank/shared/blood-request';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import type { BloodRequestRow } from '../../db/types';
import { conflict, forbidden, notFound } from '../../errors';
import { recordRequestActivity } from './request-activity';
import {
  cancelPendingRequest,
  countRequestsByStatus,
  findBloodRequest,
  insertBloodRequest,
  listIssuedUnitIds,
  listRequestsOfPatient,
} from './requests.repository';

export const REQUEST_MESSAGES = {
  notFound: 'Request not found',
  notYours: 'You can only cancel your own requests',
  onlyPendingCancellable: 'Only a pending request can be cancelled.',
} as const;

/** A blood_requests row in the shape of the API (BloodRequestSchema). */
export function toBloodRequest(row: BloodRequestRow, issuedUnitIds: number[]): BloodRequest {
  return {
    id: row.id,
    bloodgroup: row.bloodgroup,
    unit: row.units,
    date: row.required_date,
    doctorname: row.doctorname,
    hospitaladdress: row.hospital_address,
    reason: row.reason,
    status: row.status,
    rejection_reason: row.rejection_reason,
    issued_bloodgroup: row.issued_bloodgroup,
    issued_unit_ids: issuedUnitIds,
    created_at: row.created_at,
    decided_at: row.decided_at,
  };
}

/** Rows to API shapes with their issued units, loaded in one query for all of them. */
export async function toBloodRequests(
  db: DatabaseOrTransaction,
  rows: BloodRequestRow[],
): Promise<BloodRequest[]> {
  const unitIds = await listIssuedUnitIds(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toBloodRequest(row, unitIds.get(row.id) ?? []));
}

export async function submitBloodRequest(
  ctx: AppContext,
  patientId: number,
  input: BloodRequestInput,
): Promise<BloodRequest> {
  const at = ctx.clock.now().toISOString();
  // Every column but the id: the row as stored is these values and the id the insert gives back.
  const values: Omit<BloodRequestRow, 'id'> = {
    patient_id: patientId,
    bloodgroup: input.bloodgroup,
    units: input.unit,
    required_date: input.date,
    doctorname: input.doctorname,
    hospital_address: input.hospitaladdress,
    reason: input.reason,
    status: 'pending',
    rejection_reason: null,
    issued_bloodgroup: null,
    decided_by: null,
    decided_at: null,
    created_at: at,
  };
  const row = await ctx.writes.run(async (trx) => {
    const created: BloodRequestRow = { id: await insertBloodRequest(trx, values), ...values };
    await recordRequestActivity(trx, created, { type: 'submitted' }, at);
    return created;
  });
  return toBloodRequest(row, []);
}

export async function listOwnRequests(ctx: AppContext, patientId: number): Promise<BloodRequest[]> {
  return toBloodRequests(ctx.db, await listRequestsOfPatient(ctx.db, patientId));
}

export async function cancelOwnRequest(
  ctx: AppContext,
  patientId: number,
  requestId: number,
): Promise<BloodRequest> {
  const existing = await findBloodRequest(ctx.db, requestId);
  if (!existing) throw notFound(REQUEST_MESSAGES.notFound);
  if (existing.patient_id !== patientId) throw forbidden(REQUEST_MESSAGES.notYours);
  if (existing.status !== 'pending')
    throw conflict(REQUEST_MESSAGES.onlyPendingCancellable, 'request_not_pending');

  const at = ctx.clock.now().toISOString();
  const cancelled = await ctx.writes.run(async (trx) => {
    // The read above only picks the error; this conditional update is what decides the race.
    const row = await cancelPendingRequest(trx, requestId, patientId, at);
    if (!row) throw conflict(REQUEST_MESSAGES.onlyPendingCancellable, 'request_not_pending');
    await recordRequestActivity(trx, row, { type: 'cancelled' }, at);
    return row;
  });
  return toBloodRequest(cancelled, []);
}

/** Total counts every request the patient made, cancelled ones included: it matches the My Requests list. */
export async function getPatientSummary(ctx: AppContext, patientId: number): Promise<PatientSummary> {
  const counts = await countRequestsByStatus(ctx.db, patientId);
  const pending = counts.pending ?? 0;
  const approved = counts.approved ?? 0;
  const rejected = counts.rejected ?? 0;
  const cancelled = counts.cancelled ?? 0;
  return { total: pending + approved + rejected + cancelled, pending, approved, rejected };
}
