import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { Role } from '@bloodbank/shared/auth';
import type { DonationStatus } from '@bloodbank/shared/donation';
import type { RequestStatus } from '@bloodbank/shared/blood-request';
import type { HoldReason, UnitStatus } from '@bloodbank/shared/admin';
import type { Component } from '@bloodbank/shared/components';
import type { DeferralSource, DeferralType, TestOutcome } from '@bloodbank/shared/donation-lifecycle';

/** Kysely table types, in step with db/migrations. Dates are YYYY-MM-DD text, instants ISO-8601 UTC text. */

export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_key: string;
  password_hash: string;
  role: Role;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  bloodgroup: BloodGroup | null;
  address: string | null;
  mobile: string | null;
  profile_pic: string | null;
  /** 1 or 0. */
  is_active: Generated<number>;
  token_version: Generated<number>;
  created_at: string;
  updated_at: string;
  deactivated_at: string | null;
  /** 1 or 0: the person's choices (PRODUCT.md 3.8). */
  email_notifications: Generated<number>;
  callouts: Generated<number>;
}

export interface PatientsTable {
  user_id: number;
  disease: string;
  age: number;
  doctorname: string;
}

export interface DonationsTable {
  id: Generated<number>;
  donor_id: number;
  bloodgroup: BloodGroup;
  units: number;
  donation_date: string;
  disease: string;
  last_donation: string | null;
  status: Generated<DonationStatus>;
  rejection_reason: string | null;
  decided_by: number | null;
  decided_at: string | null;
  created_at: string;
  /** The day the blood was taken (or the screening failed); null before collection. */
  collected_on: string | null;
  /** Confidential: the failed screening measurements, or why the donation was discarded. */
  outcome_reason: string | null;
  /** The site and slot (HH:MM) when booked at a site; both null for a booking by date alone. */
  site_id: number | null;
  slot: string | null;
  /** When staff checked the donor in on the day. */
  checked_in_at: string | null;
  /** The booked day a reminder was sent for (appointment-reminders.ts); a move to another day makes it due again. */
  reminded_for: string | null;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  title: string;
  body: string;
  created_at: string;
  read_at: string | null;
}

/** The persistent queue (modules/notifications/job-queue.ts). */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** JSON. */
  payload: string;
  run_after: string;
  attempts: Generated<number>;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  done_at: string | null;
  failed_at: string | null;
}

export interface DailyRunsTable {
  day: string;
  started_at: string;
  finished_at: string | null;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface CalloutsTable {
  id: Generated<number>;
  bloodgroup: BloodGroup;
  reason: 'low_stock' | 'staff';
  created_by: number | null;
  created_at: string;
  notified: Generated<number>;
}

export interface CalloutRecipientsTable {
  callout_id: number;
  donor_id: number;
  notified_at: string;
}

export interface SitesTable {
  id: Generated<number>;
  name: string;
  address: string;
  /** 1 or 0. */
  active: Generated<number>;
  /** JSON WeeklyHours: weekday -> {open, close} or null. */
  hours: string;
  slot_minutes: Generated<number>;
  capacity: Generated<number>;
  /** JSON array of YYYY-MM-DD, sorted. */
  closed_dates: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface BloodRequestsTable {
  id: Generated<number>;
  patient_id: number;
  bloodgroup: BloodGroup;
  units: number;
  required_date: string;
  doctorname: string;
  hospital_address: string;
  reason: string;
  /** Defaults to red cells. */
  component: Generated<Component>;
  status: Generated<RequestStatus>;
  rejection_reason: string | null;
  issued_bloodgroup: BloodGroup | null;
  decided_by: number | null;
  decided_at: string | null;
  created_at: string;
}

export interface BloodUnitsTable {
  id: Generated<number>;
  bloodgroup: BloodGroup;
  /** Defaults to red cells (the units that existed before components). */
  component: Generated<Component>;
  /** The whole-blood unit it was separated from. */
  parent_unit_id: number | null;
  source: 'donation' | 'manual';
  donation_id: number | null;
  collected_on: string;
  expires_on: string;
  status: Generated<UnitStatus>;
  /** Set exactly when quarantined: awaiting its donation's tests, or a lookback hold. */
  hold_reason: HoldReason | null;
  request_id: number | null;
  issued_at: string | null;
  discarded_at: string | null;
  discard_reason: string | null;
  created_at: string;
}

export interface GameProfilesTable {
  id: Generated<number>;
  donor_id: number;
  points: Generated<number>;
  level: Generated<number>;
  donation_streak: Generated<number>;
  points_reached_at: string;
  created_at: string;
  updated_at: string;
}

export interface AchievementsTable {
  id: Generated<number>;
  code: string;
  name: string;
  description: string;
  points_reward: number;
  icon: string;
  rule: 'donations' | 'streak';
  threshold: number;
}

export interface EarnedAchievementsTable {
  id: Generated<number>;
  donor_id: number;
  achievement_id: number;
  earned_at: string;
  /** When donation-complete showed it to the donor; null until then. */
  seen_at: string | null;
}

export interface GameRewardsTable {
  id: Generated<number>;
  donation_id: number;
  donor_id: number;
  points: number;
  rewarded_at: string;
  /** When donation-complete showed it to the donor; null until then. */
  seen_at: string | null;
}

export interface DonationScreeningsTable {
  donation_id: number;
  haemoglobin_g_dl: number;
  weight_kg: number;
  bp_systolic: number;
  bp_diastolic: number;
  pulse: number;
  /** 1 or 0. */
  passed: number;
  recorded_by: number;
  recorded_at: string;
}

export interface DonationTestResultsTable {
  donation_id: number;
  hiv: TestOutcome;
  hbv: TestOutcome;
  hcv: TestOutcome;
  syphilis: TestOutcome;
  bloodgroup: BloodGroup;
  recorded_by: number;
  recorded_at: string;
}

export interface DeferralsTable {
  id: Generated<number>;
  donor_id: number;
  type: DeferralType;
  /** The first day the donor may donate again; null when permanent. */
  until: string | null;
  reason: string;
  source: DeferralSource;
  donation_id: number | null;
  created_by: number;
  created_at: string;
  lifted_at: string | null;
  lifted_by: number | null;
  lift_reason: string | null;
}

export interface ActivitiesTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  message: string;
  created_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  actor_id: number | null;
  actor: string;
  action: string;
  entity: string;
  entity_id: number | null;
  /** JSON text. */
  detail: string;
}

/** Available units per group, component and expiry date, kept in step with blood_units by triggers (migration 2026-11-25-0003). */
export interface BloodStockTable {
  bloodgroup: BloodGroup;
  component: Component;
  expires_on: string;
  units: number;
}

/**
 * Ever-growing change counters, a column per counted table, bumped by triggers in the transaction of
 * every change (see db/change-versions.ts): on PostgreSQL a row per shard, on SQLite one row.
 */
export interface ChangeCountersTable {
  shard: number;
  users: number;
  patients: number;
  achievements: number;
  audit_log: number;
  donations: number;
  blood_requests: number;
  blood_units: number;
  game_profiles: number;
  earned_achievements: number;
  game_rewards: number;
  activities: number;
  deferrals: number;
  donation_screenings: number;
  donation_test_results: number;
}

export interface DB {
  users: UsersTable;
  patients: PatientsTable;
  donations: DonationsTable;
  sites: SitesTable;
  notifications: NotificationsTable;
  jobs: JobsTable;
  daily_runs: DailyRunsTable;
  password_resets: PasswordResetsTable;
  callouts: CalloutsTable;
  callout_recipients: CalloutRecipientsTable;
  blood_requests: BloodRequestsTable;
  blood_units: BloodUnitsTable;
  game_profiles: GameProfilesTable;
  achievements: AchievementsTable;
  earned_achievements: EarnedAchievementsTable;
  game_rewards: GameRewardsTable;
  activities: ActivitiesTable;
  audit_log: AuditLogTable;
  blood_stock: BloodStockTable;
  change_counters: ChangeCountersTable;
  donation_screenings: DonationScreeningsTable;
  donation_test_results: DonationTestResultsTable;
  deferrals: DeferralsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type DonationRow = Selectable<DonationsTable>;
export type BloodRequestRow = Selectable<BloodRequestsTable>;
export type BloodUnitRow = Selectable<BloodUnitsTable>;
export type DeferralRow = Selectable<DeferralsTable>;
