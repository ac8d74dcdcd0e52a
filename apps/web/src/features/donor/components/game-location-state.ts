import type { EarnedAchievement } from '@bloodbank/shared/game';

/**
 * Router state the Donate Blood screen hands to /donor/game, so the game dashboard can celebrate
 * the achievements that donation unlocked (the Achievement Unlocked! modal).
 */
export interface GameLocationState {
  newAchievements?: EarnedAchievement[];
}

export function newAchievementsFrom(state: unknown): EarnedAchievement[] {
  const value = (state as GameLocationState | null)?.newAchievements;
  return Array.isArray(value) ? value : [];
}
