import type { AppContext } from '../../context';
import { listAllUnits } from '../inventory/inventory.repository';
import { isExpiredUnit } from '../inventory/inventory.service';
import { listAllDonationsWithDonors } from '../donations/donations.repository';
import { listAllRequestsWithPatients } from '../requests/request-decisions.repository';
import { fullNameOf } from '../users/users.service';
import { toCsv } from './csv';

export const EXPORTS = ['donations', 'requests', 'units'] as const;
export type ExportName = (typeof EXPORTS)[number];

async function donationsCsv(ctx: AppContext): Promise<string> {
  const rows = await listAllDonationsWithDonors(ctx.db);
  return toCsv(
    // outcome_reason: why a screening deferred it (each failed measurement), why staff's action
    // cancelled it, or why it was discarded; what the screen shows beside the status.
    // (Last, so the columns of spreadsheets made from earlier exports stay where they were.)
    ['id', 'donor_id', 'donor_username', 'donor_name', 'bloodgroup', 'units', 'donation_date', 'health_condition', 'last_donation', 'status', 'rejection_reason', 'decided_at', 'collected_on', 'created_at', 'outcome_reason'],
    rows.map((row) => [
      row.id,
      row.donor_id,
      row.username,
      fullNameOf(row),
      row.bloodgroup,
      row.units,
      row.donation_date,
      row.disease,
      row.last_donation,
      row.status,
      row.rejection_reason,
      row.decided_at,
      row.collected_on,
      row.created_at,
      row.outcome_reason,
    ]),
  );
}

async function requestsCsv(ctx: AppContext): Promise<string> {
  const rows = await listAllRequestsWithPatients(ctx.db);
  return toCsv(
    ['id', 'patient_id', 'patient_username', 'patient_name', 'bloodgroup', 'component', 'units', 'required_date', 'doctorname', 'hospital_address', 'reason', 'status', 'rejection_reason', 'issued_bloodgroup', 'decided_at', 'created_at'],
    rows.map((row) => [
      row.id,
      row.patient_id,
      row.username,
      fullNameOf(row),
      row.bloodgroup,
      row.component,
      row.units,
      row.required_date,
      row.doctorname,
      row.hospital_address,
      row.reason,
      row.status,
      row.rejection_reason,
      row.issued_bloodgroup,
      row.decided_at,
      row.created_at,
    ]),
  );
}

async function unitsCsv(ctx: AppContext): Promise<string> {
  const today = ctx.clock.today();
  const rows = await listAllUnits(ctx.db);
  return toCsv(
    ['id', 'bloodgroup', 'component', 'parent_unit_id', 'source', 'donation_id', 'collected_on', 'expires_on', 'status', 'hold_reason', 'expired', 'request_id', 'issued_at', 'discarded_at', 'discard_reason', 'created_at'],
    rows.map((row) => [
      row.id,
      row.bloodgroup,
      row.component,
      row.parent_unit_id,
      row.source,
      row.donation_id,
      row.collected_on,
      row.expires_on,
      row.status,
      row.hold_reason,
      isExpiredUnit(row, today) ? 'yes' : 'no',
      row.request_id,
      row.issued_at,
      row.discarded_at,
      row.discard_reason,
      row.created_at,
    ]),
  );
}

const builders: Record<ExportName, (ctx: AppContext) => Promise<string>> = {
  donations: donationsCsv,
  requests: requestsCsv,
  units: unitsCsv,
};

/** The file's text and the name it downloads under (dated, so exports of different days do not collide). */
export async function buildExport(ctx: AppContext, name: ExportName): Promise<{ filename: string; csv: string }> {
  return { filename: `${name}-${ctx.clock.today()}.csv`, csv: await builders[name](ctx) };
}
