import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { LEADERBOARD_LIMIT } from '@bloodbank/shared/constants';
import { LeaderboardEntrySchema, type LeaderboardEntry } from '@bloodbank/shared/game';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

const LeaderboardSchema = z.array(LeaderboardEntrySchema);

/** GET /api/game/leaderboard?limit=N: donors by points, then who reached them first. */
export function getLeaderboard(limit: number, signal?: AbortSignal): Promise<LeaderboardEntry[]> {
  return apiRequest('/game/leaderboard', { schema: LeaderboardSchema, query: { limit }, signal });
}

export function leaderboardQueryOptions(limit: number = LEADERBOARD_LIMIT.default) {
  return queryOptions({
    queryKey: donorKeys.leaderboard(limit),
    queryFn: ({ signal }) => getLeaderboard(limit, signal),
  });
}

export function useLeaderboard(limit?: number) {
  return useQuery(leaderboardQueryOptions(limit));
}
