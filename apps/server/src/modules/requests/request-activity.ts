import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { COMPONENT_WORDS, type Component } from '@bloodbank/shared/components';
import type { DatabaseOrTransaction } from '../../db/database';
import { recordActivity } from '../activity/activity.repository';
import { asSentence } from '../../lib/sentences';

/**
 * What a patient's activity feed says about one of their requests. The requests module records
 * "submitted" and "cancelled"; the admin module records "approved" and "rejected" with the same
 * helpers, so every entry about a request reads the same way.
 */
export const REQUEST_ACTIVITY_KINDS = {
  submitted: 'request_submitted',
  approved: 'request_approved',
  rejected: 'request_rejected',
  cancelled: 'request_cancelled',
} as const;

/** The columns of a blood_requests row an activity message needs. */
export interface RequestForActivity {
  patient_id: number;
  bloodgroup: BloodGroup;
  component: Component;
  units: number;
  required_date: string;
}

export type RequestEvent =
  | { type: 'submitted' }
  | { type: 'cancelled' }
  /** issuedBloodgroup: the group the units came from (a compatible one when the requested group ran short). */
  | { type: 'approved'; issuedBloodgroup: BloodGroup }
  | { type: 'rejected'; reason: string | null };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-03-20" -> "20 Mar 2026"; built by hand so the text never depends on the runtime's locale data. */
export function formatRequestDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  const monthName = MONTHS[(month ?? 1) - 1] ?? '';
  return `${day} ${monthName} ${year}`;
}

function describeRequest(request: RequestForActivity): string {
  const units = request.units === 1 ? '1 unit' : `${request.units} units`;
  // The component is named: two requests of one group, size and date may differ only in it.
  return `request for ${units} of ${request.bloodgroup} ${COMPONENT_WORDS[request.component]} needed by ${formatRequestDate(request.required_date)}`;
}

export function requestActivityMessage(request: RequestForActivity, event: RequestEvent): string {
  const what = describeRequest(request);
  switch (event.type) {
    case 'submitted':
      return `Your ${what} was submitted and is awaiting approval.`;
    case 'cancelled':
      return `You cancelled your ${what}.`;
    case 'approved':
      return event.issuedBloodgroup === request.bloodgroup
        ? `Your ${what} was approved.`
        : `Your ${what} was approved with compatible ${event.issuedBloodgroup} units.`;
    case 'rejected': {
      const reason = event.reason?.trim();
      return reason ? `Your ${what} was rejected. Reason: ${asSentence(reason)}` : `Your ${what} was rejected.`;
    }
  }
}

/** Adds the entry to the patient's feed; pass the transaction that changes the request so both commit together. */
export async function recordRequestActivity(
  db: DatabaseOrTransaction,
  request: RequestForActivity,
  event: RequestEvent,
  at: string,
): Promise<void> {
  await recordActivity(db, {
    userId: request.patient_id,
    kind: REQUEST_ACTIVITY_KINDS[event.type],
    message: requestActivityMessage(request, event),
    at,
  });
}
