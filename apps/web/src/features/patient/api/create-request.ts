import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import {
  BloodRequestSchema,
  type BloodRequest,
  type BloodRequestInput,
} from '@bloodbank/shared/blood-request';
import { apiRequest } from '@/lib/api-client';
import { myRequestsQueryKey } from './get-my-requests';
import { patientSummaryQueryKey } from './get-patient-summary';

/** POST /api/requests: the Request Blood form; the request starts pending. */
export function createRequest(input: BloodRequestInput): Promise<BloodRequest> {
  return apiRequest('/requests', { method: 'POST', body: { json: input }, schema: BloodRequestSchema });
}

export function useCreateRequest() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: createRequest,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: myRequestsQueryKey }),
        queryClient.invalidateQueries({ queryKey: patientSummaryQueryKey }),
      ]),
  });
}
