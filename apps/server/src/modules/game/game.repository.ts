import type { Transaction } from 'kysely';
import { COLLECTED_DONATION_STATUSES } from '@bloodbank/shared/donation';
import type { DatabaseOrTransaction } from '../../db/database';
import type { DB } from '../../db/types';

const profileColumns = ['id', 'donor_id', 'points', 'level', 'donation_streak', 'points_reached_at'] as const;

/**
 * The game-state reads are exported as builders so that a test can EXPLAIN the very queries the
 * routes run (each must be an index lookup by donor, never a scan).
 */
export function profileOfDonorQuery(db: DatabaseOrTransaction, donorId: number) {
  return db.selectFrom('game_profiles').select(profileColumns).where('donor_id', '=', donorId);
}

export function findProfile(db: DatabaseOrTransaction, donorId: number) {
  return profileOfDonorQuery(db, donorId).executeTakeFirst();
}

/** A fresh profile (0 points, level 1, streak 0); fails on the unique donor_id when one exists. */
export async function insertProfile(db: DatabaseOrTransaction, donorId: number, at: string): Promise<void> {
  await db
    .insertInto('game_profiles')
    .values({
      donor_id: donorId,
      points: 0,
      level: 1,
      donation_streak: 0,
      points_reached_at: at,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

export async function insertProfileIfMissing(
  db: DatabaseOrTransaction,
  donorId: number,
  at: string,
): Promise<void> {
  await db
    .insertInto('game_profiles')
    .values({
      donor_id: donorId,
      points: 0,
      level: 1,
      donation_streak: 0,
      points_reached_at: at,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('donor_id').doNothing())
    .execute();
}

/**
 * Reads the profile through an UPDATE so that it is row-locked on PostgreSQL until the transaction
 * ends: two recomputations for one donor (a reward and a rejection) run one after the other and
 * each sees the other's result. SQLite transactions are serialized anyway.
 */
export function lockProfile(trx: Transaction<DB>, donorId: number, at: string) {
  return trx
    .updateTable('game_profiles')
    .set({ updated_at: at })
    .where('donor_id', '=', donorId)
    .returning(profileColumns)
    .executeTakeFirst();
}

export async function updateProfileStanding(
  db: DatabaseOrTransaction,
  profileId: number,
  standing: { points: number; level: number; donation_streak: number; points_reached_at: string },
): Promise<void> {
  await db.updateTable('game_profiles').set(standing).where('id', '=', profileId).execute();
}

/**
 * The days the donor gave blood, oldest first: their rewarded donations that were collected (a
 * released or discarded donation was collected too; a confidential result never changes the game).
 */
export async function listRewardedDonationDates(
  db: DatabaseOrTransaction,
  donorId: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('game_rewards')
    .innerJoin('donations', 'donations.id', 'game_rewards.donation_id')
    .select(['donations.collected_on', 'donations.donation_date'])
    .where('game_rewards.donor_id', '=', donorId)
    .where('donations.status', 'in', COLLECTED_DONATION_STATUSES)
    .orderBy('donations.collected_on')
    .orderBy('donations.id')
    .execute();
  return rows.map((row) => row.collected_on ?? row.donation_date);
}

export function countRewardedDonationsQuery(db: DatabaseOrTransaction, donorId: number) {
  return db
    .selectFrom('game_rewards')
    .innerJoin('donations', 'donations.id', 'game_rewards.donation_id')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('game_rewards.donor_id', '=', donorId)
    .where('donations.status', 'in', COLLECTED_DONATION_STATUSES);
}

export async function countRewardedDonations(db: DatabaseOrTransaction, donorId: number): Promise<number> {
  const row = await countRewardedDonationsQuery(db, donorId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Fails on the unique donation_id when the donation was already rewarded. */
export async function insertReward(
  db: DatabaseOrTransaction,
  reward: { donationId: number; donorId: number; points: number; at: string },
): Promise<void> {
  await db
    .insertInto('game_rewards')
    .values({
      donation_id: reward.donationId,
      donor_id: reward.donorId,
      points: reward.points,
      rewarded_at: reward.at,
      seen_at: null,
    })
    .execute();
}

/**
 * The donor's rewards not shown yet, marked shown in the same statement: of two calls at once,
 * one gets them and the other none (the row lock on PostgreSQL, one writer on SQLite).
 */
export function takeUnseenRewards(trx: Transaction<DB>, donorId: number, at: string) {
  return trx
    .updateTable('game_rewards')
    .set({ seen_at: at })
    .where('donor_id', '=', donorId)
    .where('seen_at', 'is', null)
    .returning(['donation_id', 'points'])
    .execute();
}

/** The achievements earned and not shown yet, marked shown (see takeUnseenRewards). */
export function takeUnseenAchievements(trx: Transaction<DB>, donorId: number, at: string) {
  return trx
    .updateTable('earned_achievements')
    .set({ seen_at: at })
    .where('donor_id', '=', donorId)
    .where('seen_at', 'is', null)
    .returning(['id', 'achievement_id', 'earned_at'])
    .execute();
}

const achievementColumns = [
  'id',
  'code',
  'name',
  'description',
  'points_reward',
  'icon',
  'rule',
  'threshold',
] as const;

export function listAchievements(db: DatabaseOrTransaction) {
  return db.selectFrom('achievements').select(achievementColumns).orderBy('id').execute();
}

export type AchievementRow = Awaited<ReturnType<typeof listAchievements>>[number];

export function listEarnedAchievements(db: DatabaseOrTransaction, donorId: number) {
  return earnedAchievementsQuery(db, donorId).execute();
}

export function earnedAchievementsQuery(db: DatabaseOrTransaction, donorId: number) {
  return db
    .selectFrom('earned_achievements')
    .innerJoin('achievements', 'achievements.id', 'earned_achievements.achievement_id')
    .select([
      'earned_achievements.id',
      'earned_achievements.achievement_id',
      'earned_achievements.earned_at',
      'achievements.name',
      'achievements.description',
      'achievements.points_reward',
      'achievements.icon',
    ])
    .where('earned_achievements.donor_id', '=', donorId)
    .orderBy('earned_achievements.earned_at')
    .orderBy('earned_achievements.achievement_id');
}

export async function insertEarnedAchievement(
  db: DatabaseOrTransaction,
  earned: { donorId: number; achievementId: number; at: string },
): Promise<number> {
  const row = await db
    .insertInto('earned_achievements')
    .values({ donor_id: earned.donorId, achievement_id: earned.achievementId, earned_at: earned.at, seen_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteEarnedAchievements(
  db: DatabaseOrTransaction,
  donorId: number,
  achievementIds: number[],
) {
  if (achievementIds.length === 0) return;
  await db
    .deleteFrom('earned_achievements')
    .where('donor_id', '=', donorId)
    .where('achievement_id', 'in', achievementIds)
    .execute();
}

/**
 * Leaderboard order: points desc, then who reached them first, then profile id. Exactly the key
 * of game_profiles_leaderboard_idx, so the database walks the index and stops after `limit` rows.
 * Kept as a builder so a test can EXPLAIN the very query the route runs.
 */
export function leaderboardQuery(db: DatabaseOrTransaction, limit: number) {
  return (
    db
      .selectFrom('game_profiles')
      // A CROSS JOIN plus the join condition is an inner join on both engines, but it also tells
      // SQLite to keep game_profiles as the outer loop. Left to itself, SQLite scans users and
      // sorts every profile (measured on 100,000 donors); this way it reads the first rows of the index.
      .crossJoin('users')
      .whereRef('users.id', '=', 'game_profiles.donor_id')
      .select([
        'game_profiles.id',
        'game_profiles.donor_id',
        'game_profiles.level',
        'game_profiles.points',
        'users.username',
        'users.first_name',
        'users.last_name',
      ])
      // Deactivated (deleted) donors leave the board.
      .where('users.is_active', '=', 1)
      .orderBy('game_profiles.points', 'desc')
      .orderBy('game_profiles.points_reached_at', 'asc')
      .orderBy('game_profiles.id', 'asc')
      .limit(limit)
  );
}
