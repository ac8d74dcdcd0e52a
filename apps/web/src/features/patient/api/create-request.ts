import { useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import {
  BloodRequestSchema,
  type BloodRequest,
  type BloodRequestInput,
} from '@bloodbank/shared/blood-request';
import { ApiError, apiRequest } from '@/lib/api-client';
import { getMyRequests, myRequestsQueryKey } from './get-my-requests';
import { patientSummaryQueryKey } from './get-patient-summary';

/** POST /api/requests: the Request Blood form; the request starts pending. */
export function createRequest(input: BloodRequestInput): Promise<BloodRequest> {
  return apiRequest('/requests', { method: 'POST', body: { json: input }, schema: BloodRequestSchema });
}

/** How far the server's clock may be from the phone's when a lost request is looked for. */
const CLOCK_MARGIN_MS = 10 * 60_000;

/**
 * The patient's request with exactly these details, made since `since` (the phone's clock, less
 * the margin), or undefined: what a send whose answer was lost may have saved.
 */
export async function findSavedRequest(
  input: BloodRequestInput,
  since: number,
): Promise<BloodRequest | undefined> {
  const mine = await getMyRequests();
  return mine.find(
    (request) =>
      Date.parse(request.created_at) >= since - CLOCK_MARGIN_MS &&
      request.bloodgroup === input.bloodgroup &&
      request.component === input.component &&
      request.unit === input.unit &&
      request.date === input.date &&
      request.doctorname === input.doctorname &&
      request.hospitaladdress === input.hospitaladdress &&
      request.reason === input.reason,
  );
}

const lostConnection = (error: unknown) => error instanceof ApiError && error.status === 0;

/**
 * Sends the Request Blood form once, even over a connection that drops. When a send's answer is
 * lost (the connection failed after the request left the phone), the request may be saved: the
 * patient's list is asked for it, now and again before the next send, so tapping Submit after
 * "Failed to submit" shows the request that was made instead of making a second one (which could
 * take a second set of units).
 */
export function useCreateRequest() {
  const queryClient = useQueryClient();
  // When the first send whose answer was lost left; null when no answer is missing.
  const lostSince = useRef<number | null>(null);
  return useWriteMutation({
    mutationFn: async (input: BloodRequestInput) => {
      if (lostSince.current !== null) {
        const saved = await findSavedRequest(input, lostSince.current).catch(() => undefined);
        if (saved) {
          lostSince.current = null;
          return saved;
        }
      }
      const sentAt = Date.now();
      try {
        const created = await createRequest(input);
        lostSince.current = null;
        return created;
      } catch (error) {
        if (!lostConnection(error)) throw error;
        lostSince.current ??= sentAt;
        const saved = await findSavedRequest(input, lostSince.current).catch(() => undefined);
        if (!saved) throw error;
        lostSince.current = null;
        return saved;
      }
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: myRequestsQueryKey }),
        queryClient.invalidateQueries({ queryKey: patientSummaryQueryKey }),
      ]),
  });
}
