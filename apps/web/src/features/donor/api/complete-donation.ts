import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { DonationCompleteResultSchema, type DonationCompleteResult } from '@bloodbank/shared/game';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

/**
 * POST /api/game/donation-complete: the rewards credited at collection that the donor has not seen
 * yet (points and achievements), once; 409 "No completed donation to reward" when there are none.
 */
export function completeDonation(): Promise<DonationCompleteResult> {
  return apiRequest('/game/donation-complete', { method: 'POST', schema: DonationCompleteResultSchema });
}

export function useCompleteDonation() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: completeDonation,
    // Points, level, achievements and the leaderboard all move; the feed gains "Achievement unlocked".
    // A 409 (nothing new) changes nothing, so only a reward refreshes them.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: donorKeys.game }),
        queryClient.invalidateQueries({ queryKey: donorKeys.summary }),
      ]),
  });
}
