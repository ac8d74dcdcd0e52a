import { STREAK_WINDOW_DAYS } from '@bloodbank/shared/constants';
import { daysBetween } from '@bloodbank/shared/dates';
import type { AchievementRow } from './game.repository';

/**
 * The rules of the Blood Hero game (PRODUCT.md 3.4), as pure functions of a donor's history:
 * recompute-game-state.ts applies them inside the transaction that changes that history.
 */

export interface DonationRecord {
  /** Collected donations (collected, released or discarded). */
  donations: number;
  /** Consecutive donations ending with the latest, each at most 180 days after the previous. */
  currentStreak: number;
  /** The longest such run in the history: what the streak achievement asks for. */
  longestStreak: number;
}

/** The game's view of a donor's history, from the days they gave blood, oldest first. */
export function donationRecordOf(datesOldestFirst: readonly string[]): DonationRecord {
  let currentStreak = 0;
  let longestStreak = 0;
  let previous: string | undefined;
  for (const date of datesOldestFirst) {
    currentStreak =
      previous !== undefined && daysBetween(previous, date) <= STREAK_WINDOW_DAYS ? currentStreak + 1 : 1;
    longestStreak = Math.max(longestStreak, currentStreak);
    previous = date;
  }
  return { donations: datesOldestFirst.length, currentStreak, longestStreak };
}

/**
 * Whether the history earns an achievement. The streak achievement asks for a streak once
 * reached, not the current one: a donor who already earned it does not lose 500 points for
 * donating again after a long break.
 */
export function deserves(
  achievement: Pick<AchievementRow, 'rule' | 'threshold'>,
  record: DonationRecord,
): boolean {
  return achievement.rule === 'donations'
    ? record.donations >= achievement.threshold
    : record.longestStreak >= achievement.threshold;
}

// Levels (level n spans 100 x n points) are shared with the web app's progress bar:
// levelForPoints, levelStartPoints and nextLevelPoints in packages/shared/src/game.ts.
