import { queryOptions, useQuery } from '@tanstack/react-query';
import { GameStateSchema, type GameState } from '@bloodbank/shared/game';
import { ApiError, apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

/** GET /api/game/state; null when the donor has no game profile yet (the server's 404). */
export async function getGameState(signal?: AbortSignal): Promise<GameState | null> {
  try {
    return await apiRequest('/game/state', { schema: GameStateSchema, signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function gameStateQueryOptions() {
  return queryOptions({
    queryKey: donorKeys.gameState,
    queryFn: ({ signal }) => getGameState(signal),
  });
}

export function useGameState() {
  return useQuery(gameStateQueryOptions());
}
