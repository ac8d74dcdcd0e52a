import { useQueryClient } from '@tanstack/react-query';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { GameProfileSchema, type GameProfile } from '@bloodbank/shared/game';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

/**
 * POST /api/game/profiles. The spec's body (points 0, level 1, streak 0) is sent for older
 * servers; this server ignores it and derives the profile from the donor's history.
 */
export function createGameProfile(): Promise<GameProfile> {
  return apiRequest('/game/profiles', {
    method: 'POST',
    body: { json: { points: 0, level: 1, donation_streak: 0 } },
    schema: GameProfileSchema,
  });
}

export function useCreateGameProfile() {
  const queryClient = useQueryClient();
  return useWriteMutation({
    mutationFn: createGameProfile,
    // Spec section 4: creating a profile is followed by a reload.
    onSettled: () => queryClient.invalidateQueries({ queryKey: donorKeys.game }),
  });
}
