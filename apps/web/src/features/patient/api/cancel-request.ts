import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { BloodRequestSchema, type BloodRequest } from '@bloodbank/shared/blood-request';
import { apiRequest } from '@/lib/api-client';
import { myRequestsQueryKey } from './get-my-requests';
import { patientSummaryQueryKey } from './get-patient-summary';

/** POST /api/requests/:id/cancel: the patient withdraws one of their pending requests. */
export function cancelRequest(id: number): Promise<BloodRequest> {
  return apiRequest(`/requests/${id}/cancel`, { method: 'POST', schema: BloodRequestSchema });
}

export function useCancelRequest() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: cancelRequest,
    // Also after a 409 (decided meanwhile): the list is out of date either way.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: myRequestsQueryKey }),
        queryClient.invalidateQueries({ queryKey: patientSummaryQueryKey }),
      ]),
  });
}
