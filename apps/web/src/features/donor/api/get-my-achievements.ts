import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { EarnedAchievementSchema, type EarnedAchievement } from '@bloodbank/shared/game';
import { apiRequest } from '@/lib/api-client';
import { donorKeys } from './query-keys';

const EarnedListSchema = z.array(EarnedAchievementSchema);

/** GET /api/game/achievements/me: what the donor has earned (items carry achievement_id). */
export function getMyAchievements(signal?: AbortSignal): Promise<EarnedAchievement[]> {
  return apiRequest('/game/achievements/me', { schema: EarnedListSchema, signal });
}

export function myAchievementsQueryOptions() {
  return queryOptions({
    queryKey: donorKeys.myAchievements,
    queryFn: ({ signal }) => getMyAchievements(signal),
  });
}

export function useMyAchievements() {
  return useQuery(myAchievementsQueryOptions());
}
