import type { BloodRequest, BloodRequestInput } from '@bloodbank/shared/blood-request';
import type { AppContext } from '../../context';
import type { BloodRequestRow } from '../../db/types';
import { addRowWithId } from '../../db/rows-at-commit';
import { recordRequestActivity } from './request-activity';
import { insertBloodRequest } from './requests.repository';
import { toBloodRequest } from './requests.service';

/**
 * POST /requests (PRODUCT.md 3.5): a patient asks for blood. The fields and their limits (units
 * 1..10, a required date within the next year) are checked by the body schema; the request starts
 * pending and the patient's feed says so.
 */
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
    component: input.component,
    status: 'pending',
    rejection_reason: null,
    issued_bloodgroup: null,
    decided_by: null,
    decided_at: null,
    created_at: at,
  };
  // Adds two rows and changes none: on PostgreSQL it runs beside the other writes, and both rows
  // are inserted with its batch's at the end (write-transactions.ts).
  const row = await ctx.writes.runAddingOnly(
    async (trx) => {
      const created: BloodRequestRow = { id: await addRowWithId(trx, 'blood_requests', values, insertBloodRequest), ...values };
      await recordRequestActivity(trx, created, { type: 'submitted' }, at);
      return created;
    },
    { newRowIn: 'blood_requests' },
  );
  return toBloodRequest(row, []);
}
