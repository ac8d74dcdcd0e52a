import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import {
  BloodRequestSchema,
  type BloodRequest,
  type BloodRequestInput,
} from '@bloodbank/shared/blood-request';
import { apiRequest } from '@/lib/api-client';
import { madeSince, useSendOnce } from '@/lib/use-send-once';
import { getMyRequests, myRequestsQueryKey } from './get-my-requests';
import { patientSummaryQueryKey } from './get-patient-summary';

/** POST /api/requests: the Request Blood form; the request starts pending. */
export function createRequest(input: BloodRequestInput): Promise<BloodRequest> {
  return apiRequest('/requests', { method: 'POST', body: { json: input }, schema: BloodRequestSchema });
}

/**
 * The patient's request with exactly these details, made since `since` (the phone's clock) and not
 * cancelled: what a send whose answer was lost may have saved.
 */
export async function findSavedRequest(
  input: BloodRequestInput,
  since: number,
): Promise<BloodRequest | undefined> {
  const mine = await getMyRequests();
  // The server keeps text in NFC; what was typed may be in another form.
  const same = (stored: string, typed: string) => stored === typed.normalize('NFC');
  return mine.find(
    (request) =>
      request.status !== 'cancelled' &&
      madeSince(request.created_at, since) &&
      request.bloodgroup === input.bloodgroup &&
      request.component === input.component &&
      request.unit === input.unit &&
      request.date === input.date &&
      same(request.doctorname, input.doctorname) &&
      same(request.hospitaladdress, input.hospitaladdress) &&
      same(request.reason, input.reason),
  );
}

/**
 * Sends the Request Blood form once, even over a connection that drops (lib/use-send-once.ts):
 * tapping Submit after a lost answer shows the request that was made instead of making a second
 * one, which could take a second set of units.
 */
export function useCreateRequest() {
  const queryClient = useQueryClient();
  const sendOnce = useSendOnce(createRequest, findSavedRequest);
  return useWriteMutation({
    mutationFn: sendOnce,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: myRequestsQueryKey }),
        queryClient.invalidateQueries({ queryKey: patientSummaryQueryKey }),
      ]),
  });
}
