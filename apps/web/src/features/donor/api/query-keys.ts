/**
 * The donor area's cache keys in one place, so a mutation invalidates exactly the lists it changes.
 * Everything under `game` derives from the donor's rewarded donations.
 */
export const donorKeys = {
  summary: ['donor', 'summary'] as const,
  myDonations: ['donations', 'mine'] as const,
  game: ['game'] as const,
  gameState: ['game', 'state'] as const,
  leaderboard: (limit: number) => ['game', 'leaderboard', limit] as const,
  achievements: ['game', 'achievements'] as const,
  myAchievements: ['game', 'achievements', 'me'] as const,
  /** The donation sites and, under them, each site's free slots of a day (every booking changes those). */
  sites: ['sites'] as const,
  slots: (siteId: number, date: string) => ['sites', siteId, 'slots', date] as const,
};
