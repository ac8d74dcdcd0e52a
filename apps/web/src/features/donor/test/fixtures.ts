import type { Donation, DonorSummary } from '@bloodbank/shared/donation';
import {
  levelForPoints,
  levelStartPoints,
  nextLevelPoints,
  type Achievement,
  type EarnedAchievement,
  type GameState,
  type LeaderboardEntry,
} from '@bloodbank/shared/game';
import { jsonResponse, sampleUser } from '@/test/mock-api';

/** Test data for the donor area, shaped like the server's answers. */

export const donor = { ...sampleUser, userId: 7, first_name: 'Asha', bloodgroup: 'O+' as const };

/** Stores a session, so AuthProvider asks GET /api/users/me (answered by `meHandler`). */
export function signInAsDonor() {
  localStorage.setItem('token', 'token-donor-7');
  localStorage.setItem('userType', 'donor');
  localStorage.setItem('userId', '7');
}

export const meHandler =
  (user: object = donor) =>
  () =>
    jsonResponse(200, user);

export const CATALOGUE: Achievement[] = [
  {
    id: 1,
    name: 'First Time Hero',
    description: 'Complete your first blood donation',
    points_reward: 100,
    icon: 'first_hero_badge',
  },
  {
    id: 2,
    name: 'Regular Hero',
    description: 'Complete 3 blood donations',
    points_reward: 300,
    icon: 'regular_hero_badge',
  },
  {
    id: 3,
    name: 'Super Hero',
    description: 'Complete 5 blood donations',
    points_reward: 500,
    icon: 'super_hero_badge',
  },
  {
    id: 4,
    name: 'Blood Donation Master',
    description: 'Complete 10 blood donations',
    points_reward: 1000,
    icon: 'master_badge',
  },
  {
    id: 5,
    name: 'Consistent Donor',
    description: 'Maintain a donation streak of 3',
    points_reward: 500,
    icon: 'streak_badge',
  },
];

export function earned(achievement: Achievement, id = achievement.id + 100): EarnedAchievement {
  return { id, achievement_id: achievement.id, achievement, earned_at: '2026-03-01T10:00:00.000Z' };
}

export function gameState(
  overrides: Partial<GameState> & { points?: number; level?: number; streak?: number } = {},
): GameState {
  const points = overrides.points ?? 700;
  const level = overrides.level ?? levelForPoints(points);
  return {
    profile: { id: 3, points, level, donation_streak: overrides.streak ?? 3 },
    level_start_points: overrides.level_start_points ?? levelStartPoints(level),
    next_level_points: overrides.next_level_points ?? nextLevelPoints(level),
    total_donations: overrides.total_donations ?? 3,
    achievements: overrides.achievements ?? [earned(CATALOGUE[0]!), earned(CATALOGUE[1]!)],
  };
}

export const LEADERBOARD: LeaderboardEntry[] = [
  { id: 11, user_id: 21, name: 'Sanjay F.', level: 13, points: 1200 },
  { id: 3, user_id: 7, name: 'Asha K.', level: 8, points: 700 },
  { id: 12, user_id: 22, name: 'Rahul S.', level: 4, points: 300 },
];

export function summary(overrides: Partial<DonorSummary> = {}): DonorSummary {
  return {
    made: 4,
    pending: 1,
    approved: 2,
    rejected: 1,
    next_eligible_date: null,
    not_eligible_reason: 'You already have a donation awaiting approval.',
    deferred: null,
    latest_donation: null,
    activities: [],
    ...overrides,
  };
}

export function donation(overrides: Partial<Donation> = {}): Donation {
  return {
    id: 1,
    bloodgroup: 'O+',
    unit: 1,
    date: '2026-07-13',
    disease: 'None',
    lastDonation: null,
    status: 'pending',
    rejection_reason: null,
    created_at: '2026-07-10T09:00:00.000Z',
    decided_at: null,
    collected_on: null,
    appointment: null,
    ...overrides,
  };
}
