import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { AchievementSchema, type Achievement } from '@bloodbank/shared/game';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

const CatalogueSchema = z.array(AchievementSchema);

/** GET /api/game/achievements: the whole catalogue. */
export function getAchievements(signal?: AbortSignal): Promise<Achievement[]> {
  return apiRequest('/game/achievements', { schema: CatalogueSchema, signal });
}

export function achievementsQueryOptions() {
  return queryOptions({
    queryKey: donorKeys.achievements,
    queryFn: ({ signal }) => getAchievements(signal),
    // The catalogue is seeded and changes only with a release.
    staleTime: 10 * 60_000,
  });
}

export function useAchievements() {
  return useQuery(achievementsQueryOptions());
}
