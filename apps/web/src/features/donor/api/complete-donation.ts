import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DonationCompleteResultSchema, type DonationCompleteResult } from '@bloodbank/shared/game';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

/**
 * POST /api/game/donation-complete: rewards the latest unrewarded donation once and returns the
 * profile with only the newly earned achievements.
 */
export function completeDonation(): Promise<DonationCompleteResult> {
  return apiRequest('/game/donation-complete', { method: 'POST', schema: DonationCompleteResultSchema });
}

export function useCompleteDonation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeDonation,
    // Points, level, achievements and the leaderboard all move; the feed gains "Achievement unlocked".
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: donorKeys.game }),
        queryClient.invalidateQueries({ queryKey: donorKeys.summary }),
      ]),
  });
}
