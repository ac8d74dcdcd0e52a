import type { AdminRequest, AdminRequestsQuery, Paged } from '@bloodbank/shared/admin';
import type { BloodRequest, PatientSummary } from '@bloodbank/shared/blood-request';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import type { BloodRequestRow } from '../../db/types';
import { fullNameOf, type PersonNames } from '../users/users.service';
import { listRequestsForAdmin } from './request-decisions.repository';
import { countRequestsByStatus, listIssuedUnitIds, listRequestsOfPatient } from './requests.repository';

/**
 * What the request screens read: the patient's list and counters, the admin's Manage Requests
 * list. The changes are one file each: submit-request.ts, cancel-request.ts, approve-request.ts,
 * reject-request.ts.
 */

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
    component: row.component,
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

export function toAdminRequest(row: BloodRequestRow & PersonNames, issuedUnitIds: number[]): AdminRequest {
  return {
    ...toBloodRequest(row, issuedUnitIds),
    patient_id: row.patient_id,
    patient_name: fullNameOf(row),
    patient_username: row.username,
  };
}

export async function listOwnRequests(ctx: AppContext, patientId: number): Promise<BloodRequest[]> {
  return toBloodRequests(ctx.db, await listRequestsOfPatient(ctx.db, patientId));
}

/** Total counts every request the patient made, cancelled ones included: it matches the My Requests list. */
export async function getPatientSummary(ctx: AppContext, patientId: number): Promise<PatientSummary> {
  const counts = await countRequestsByStatus(ctx.db, patientId);
  const pending = counts.pending ?? 0;
  const approved = counts.approved ?? 0;
  const rejected = counts.rejected ?? 0;
  const cancelled = counts.cancelled ?? 0;
  return { total: pending + approved + rejected + cancelled, pending, approved, rejected, cancelled };
}

/** Manage Requests: every patient's requests, pending first (they wait for a decision), then newest. */
export async function listRequestsPage(ctx: AppContext, query: AdminRequestsQuery): Promise<Paged<AdminRequest>> {
  const { items, total } = await listRequestsForAdmin(ctx.db, {
    status: query.status,
    personId: query.patient_id,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  const unitIds = await listIssuedUnitIds(
    ctx.db,
    items.map((row) => row.id),
  );
  return {
    items: items.map((row) => toAdminRequest(row, unitIds.get(row.id) ?? [])),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
