/**
 * The benchmark's scale seeder: a realistic blood bank history inserted DIRECTLY with SQL, in big
 * batched transactions (SQLite: one prepared statement per table; PostgreSQL: unnest() batches),
 * never through the API and with ONE argon2 hash shared by every account.
 *
 * Default (scale 1): 10,000 donors, 2,000 patients, 100,000 donations, 20,000 requests,
 * 50,000 blood units (of every component), a game profile for every donor, and the activity feeds they imply.
 * `--scale 10` multiplies every count by ten.
 *
 * The rows respect the schema's invariants and the product's rules, so the server treats them as
 * its own: at most one pending donation per donor (the latest), donations of a donor at least
 * DONATION_INTERVAL_DAYS apart, units collected from collected donations as whole blood, most of them
 * separated on the day into red cells and plasma (some with platelets: the parent `processed`, the
 * children of its donation, group and collection day, quarantined or discarded with it), each
 * expiring after its component's default shelf life, donors and requests drawn from the
 * population's blood groups, every issued unit tied to an approved request for its component (red
 * cells: red cells or whole blood) of a compatible group with exactly that many units, game
 * profiles, rewards and achievements derived from the collected donations.
 *
 * Every state of a donation's lifecycle (PRODUCT.md 3.2, 3.7) is there: bookings (pending, the
 * latest of a donor), cancelled and rejected ones, deferred at screening (a screening row that
 * failed, a 30-day deferral from the collection day), collected in the last three days (units
 * quarantined for testing), released (screening and negative results, units stock) and a few
 * discarded for a reactive test (units discarded, the donor deferred for good or a year, the
 * donor's other units of the 12 months before on a lookback hold), plus deferrals set by hand.
 *
 * Used by the benchmark (bench/run.ts) and the query-plan test. Run alone:
 *   npx tsx apps/server/src/cli/seed-scale.ts --scale 1 --data-dir /tmp/somewhere   (or with DATABASE_URL)
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { BLOOD_GROUPS, POPULATION_SHARES, type BloodGroup } from '@bloodbank/shared/blood-groups';
import {
  DEFAULT_SCREENING_THRESHOLDS,
  failedScreeningReasons,
  INFECTION_TEST_LABELS,
  type CollectionInput,
  type InfectionTest,
} from '@bloodbank/shared/donation-lifecycle';
import { DONATION_INTERVAL_DAYS, POINTS_PER_DONATION } from '@bloodbank/shared/constants';
import { addMonths } from '@bloodbank/shared/dates';
import { migrateToLatest, openDatabase } from '../db/database';
import { hashPassword } from '../lib/passwords';
import { DEFERRAL_ACTIVITY_KINDS, deferralActivityMessages } from '../modules/deferrals/record-deferral';
import { DONATION_ACTIVITY_KINDS, donationActivityMessages } from '../modules/donations/donation-activity';
import {
  LOOKBACK_MONTHS,
  REACTIVE_DISCARD_REASON,
  SYPHILIS_DEFERRAL_DAYS,
} from '../modules/donations/record-test-results';
import type { AchievementRow } from '../modules/game/game.repository';
import { levelForPoints } from '@bloodbank/shared/game';
import { DEFAULT_SHELF_LIFE_DAYS, type Component } from '@bloodbank/shared/components';
import { deserves, donationRecordOf } from '../modules/game/game-rules';
import { slotStartsOn } from '../modules/sites/opening-hours';
import { sameHoursEveryDay, type WeeklyHours } from '@bloodbank/shared/sites';
import { DISCARD_MESSAGES } from '../modules/inventory/discard-units';
import { expiryDateOf } from '../modules/inventory/receive-units';
import { requestActivityMessage } from '../modules/requests/request-activity';

export const BENCH_PASSWORD = 'bench-password';
export const BENCH_ADMIN = 'bench-admin';
/** Donor ids start at 2 (the admin is 1); donor N is "donorN". */
export const donorUsername = (donorId: number) => `donor${donorId - 1}`;

/**
 * Every rule and constant comes from packages/shared and the server's services (and the
 * achievement catalogue from the migrated database), so benchmark data cannot drift from the
 * product: the server's default shelf lives (the benchmark runs it with the default config).
 */
const SHELF_LIFE_DAYS = DEFAULT_SHELF_LIFE_DAYS;
/** Of the collected bags, the share separated into components, and of those, the share also giving platelets. */
const PROCESSED_SHARE = 0.8;
const PLATELETS_SHARE = 0.3;
/** Components of the units received by hand, and of the requests that were not approved. */
const RECEIVED_COMPONENTS: readonly Component[] = ['red_cells', 'red_cells', 'red_cells', 'red_cells', 'plasma', 'platelets'];
const REQUESTED_COMPONENTS: readonly Component[] = ['red_cells', 'red_cells', 'red_cells', 'red_cells', 'red_cells', 'red_cells', 'plasma', 'plasma', 'platelets'];
const DAY_MS = 86_400_000;
type CatalogueEntry = Pick<AchievementRow, 'id' | 'points_reward' | 'rule' | 'threshold'>;
const CATALOGUE_QUERY = 'select id, points_reward, rule, threshold from achievements order by id';

export interface SeedCounts {
  donors: number;
  patients: number;
  donations: number;
  requests: number;
  units: number;
}

export function countsForScale(scale: number): SeedCounts {
  return {
    donors: Math.round(10_000 * scale),
    patients: Math.round(2_000 * scale),
    donations: Math.round(100_000 * scale),
    requests: Math.round(20_000 * scale),
    units: Math.round(50_000 * scale),
  };
}

export interface SeedTarget {
  /** postgres://… (an empty database or schema), else SQLite at sqliteFile. */
  databaseUrl?: string | undefined;
  /** PostgreSQL only: the schema to fill (the tests give each file its own). */
  pgSchema?: string | undefined;
  sqliteFile?: string;
  /** false when the schema is already migrated (the tests' databases are). */
  migrate?: boolean;
  /** false leaves the planner statistics alone (the query-plan test looks at plans without them too). */
  analyze?: boolean;
}

export interface SeedResult {
  counts: SeedCounts & {
    activities: number;
    earnedAchievements: number;
    pendingRequests: number;
    pendingDonations: number;
    cancelledDonations: number;
    rejectedDonations: number;
    deferredDonations: number;
    collectedDonations: number;
    releasedDonations: number;
    discardedDonations: number;
    deferrals: number;
    unitsInTesting: number;
    unitsOnLookbackHold: number;
  };
  adminId: number;
  /** Active donors (each has a game profile), patients: ids to sign tokens for. */
  donorIds: number[];
  patientIds: number[];
  seconds: number;
}

// ---------------------------------------------------------------- deterministic randomness

function mulberry32(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = mulberry32(20_261_120);
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
function weightedGroup(): BloodGroup {
  let roll = random();
  for (const group of BLOOD_GROUPS) {
    roll -= POPULATION_SHARES[group];
    if (roll <= 0) return group;
  }
  return 'O+';
}

const dayOf = (date: Date) => Math.floor(date.getTime() / DAY_MS);
const isoDate = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** An instant during the given day (09:00–17:59 UTC, bank hours). */
const instantAfter = (instant: string, ms: number) => new Date(Date.parse(instant) + ms).toISOString();
const instantOn = (day: number) => new Date(day * DAY_MS + int(9 * 3600, 18 * 3600 - 1) * 1000).toISOString();

const FIRST_NAMES = [
  'Asha',
  'Ravi',
  'Meera',
  'Arjun',
  'Priya',
  'Karan',
  'Anita',
  'Vikram',
  'Sara',
  'John',
  'Lena',
  'Omar',
  'Yuki',
  'Mateo',
  'Chloe',
  'Noah',
];
const LAST_NAMES = [
  'Kumar',
  'Sharma',
  'Patel',
  'Rao',
  'Singh',
  'Iyer',
  'Das',
  'Menon',
  'Smith',
  'Garcia',
  'Nguyen',
  'Okafor',
  'Müller',
  'Rossi',
  'Tanaka',
  'Silva',
];
const HOSPITALS = [
  'City Hospital, 12 Park Road',
  'General Hospital, 4 Lake View',
  'St. Mary Clinic, 88 Hill Street',
  'Care Centre, 21 Station Road',
];
const DOCTORS = ['Dr. Rao', 'Dr. Mehta', 'Dr. Smith', 'Dr. Iyer', 'Dr. Garcia'];
const REASONS = ['Surgery', 'Accident', 'Anemia', 'Childbirth', 'Cancer treatment', 'Thalassemia'];

// ---------------------------------------------------------------- writers

type Column = readonly [name: string, pgType: 'int' | 'text' | 'float8'];
type Row = readonly (string | number | null)[];

interface TableWriter {
  /** The achievement catalogue the migrations seeded. */
  achievements(): Promise<CatalogueEntry[]>;
  insert(table: string, row: Row): Promise<void>;
  finish(): Promise<void>;
}

const TABLES: Record<string, readonly Column[]> = {
  users: [
    ['id', 'int'],
    ['username', 'text'],
    ['username_key', 'text'],
    ['password_hash', 'text'],
    ['role', 'text'],
    ['first_name', 'text'],
    ['last_name', 'text'],
    ['email', 'text'],
    ['bloodgroup', 'text'],
    ['address', 'text'],
    ['mobile', 'text'],
    ['is_active', 'int'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
    ['deactivated_at', 'text'],
  ],
  patients: [
    ['user_id', 'int'],
    ['disease', 'text'],
    ['age', 'int'],
    ['doctorname', 'text'],
  ],
  sites: [
    ['id', 'int'],
    ['name', 'text'],
    ['address', 'text'],
    ['active', 'int'],
    ['hours', 'text'],
    ['slot_minutes', 'int'],
    ['capacity', 'int'],
    ['closed_dates', 'text'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
  ],
  donations: [
    ['id', 'int'],
    ['donor_id', 'int'],
    ['bloodgroup', 'text'],
    ['units', 'int'],
    ['donation_date', 'text'],
    ['disease', 'text'],
    ['last_donation', 'text'],
    ['status', 'text'],
    ['rejection_reason', 'text'],
    ['decided_by', 'int'],
    ['decided_at', 'text'],
    ['created_at', 'text'],
    ['collected_on', 'text'],
    ['outcome_reason', 'text'],
    ['site_id', 'int'],
    ['slot', 'text'],
  ],
  donation_screenings: [
    ['donation_id', 'int'],
    ['haemoglobin_g_dl', 'float8'],
    ['weight_kg', 'float8'],
    ['bp_systolic', 'int'],
    ['bp_diastolic', 'int'],
    ['pulse', 'int'],
    ['passed', 'int'],
    ['recorded_by', 'int'],
    ['recorded_at', 'text'],
  ],
  donation_test_results: [
    ['donation_id', 'int'],
    ['hiv', 'text'],
    ['hbv', 'text'],
    ['hcv', 'text'],
    ['syphilis', 'text'],
    ['bloodgroup', 'text'],
    ['recorded_by', 'int'],
    ['recorded_at', 'text'],
  ],
  // Ids assigned by the database (not in TABLES_WITH_IDS).
  deferrals: [
    ['donor_id', 'int'],
    ['type', 'text'],
    ['until', 'text'],
    ['reason', 'text'],
    ['source', 'text'],
    ['donation_id', 'int'],
    ['created_by', 'int'],
    ['created_at', 'text'],
    ['lifted_at', 'text'],
    ['lifted_by', 'int'],
    ['lift_reason', 'text'],
  ],
  blood_requests: [
    ['id', 'int'],
    ['patient_id', 'int'],
    ['bloodgroup', 'text'],
    ['units', 'int'],
    ['required_date', 'text'],
    ['doctorname', 'text'],
    ['hospital_address', 'text'],
    ['reason', 'text'],
    ['status', 'text'],
    ['rejection_reason', 'text'],
    ['issued_bloodgroup', 'text'],
    ['decided_by', 'int'],
    ['decided_at', 'text'],
    ['created_at', 'text'],
    ['component', 'text'],
  ],
  blood_units: [
    ['id', 'int'],
    ['bloodgroup', 'text'],
    ['component', 'text'],
    ['parent_unit_id', 'int'],
    ['source', 'text'],
    ['donation_id', 'int'],
    ['collected_on', 'text'],
    ['expires_on', 'text'],
    ['status', 'text'],
    ['hold_reason', 'text'],
    ['request_id', 'int'],
    ['issued_at', 'text'],
    ['discarded_at', 'text'],
    ['discard_reason', 'text'],
    ['created_at', 'text'],
  ],
  game_profiles: [
    ['id', 'int'],
    ['donor_id', 'int'],
    ['points', 'int'],
    ['level', 'int'],
    ['donation_streak', 'int'],
    ['points_reached_at', 'text'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
  ],
  game_rewards: [
    ['donation_id', 'int'],
    ['donor_id', 'int'],
    ['points', 'int'],
    ['rewarded_at', 'text'],
    ['seen_at', 'text'],
  ],
  earned_achievements: [
    ['donor_id', 'int'],
    ['achievement_id', 'int'],
    ['earned_at', 'text'],
    ['seen_at', 'text'],
  ],
  activities: [
    ['user_id', 'int'],
    ['kind', 'text'],
    ['message', 'text'],
    ['created_at', 'text'],
  ],
};
/** Tables whose ids the seeder assigns itself (PostgreSQL's identity sequences are moved past them). */
const TABLES_WITH_IDS = [
  'users',
  'sites',
  'donations',
  'blood_requests',
  'blood_units',
  'game_profiles',
  'game_rewards',
  'earned_achievements',
  'activities',
];

function sqliteWriter(file: string, analyze: boolean): TableWriter {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // Bulk load: durability of each batch does not matter, the file is checkpointed and closed at the end.
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('foreign_keys = OFF');
  const statements = new Map<string, SQLite.Statement>();
  const BATCH = 100_000;
  let pending = 0;
  const achievements = sqlite.prepare(CATALOGUE_QUERY).all() as CatalogueEntry[];
  sqlite.exec('begin');
  return {
    achievements: async () => achievements,
    insert: async (table, row) => {
      let statement = statements.get(table);
      if (!statement) {
        const columns = TABLES[table]!.map(([name]) => name);
        statement = sqlite.prepare(
          `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
        );
        statements.set(table, statement);
      }
      statement.run(row as unknown[]);
      if (++pending >= BATCH) {
        sqlite.exec('commit; begin');
        pending = 0;
      }
    },
    finish: async () => {
      sqlite.exec('commit');
      const violations = sqlite.prepare('pragma foreign_key_check').all();
      if (violations.length > 0)
        throw new Error(
          `seed: ${violations.length} foreign key violations, e.g. ${JSON.stringify(violations[0])}`,
        );
      // Planner statistics, as a database in service would have them after `PRAGMA optimize`.
      if (analyze) sqlite.exec('analyze');
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      sqlite.close();
    },
  };
}

async function postgresWriter(
  databaseUrl: string,
  pgSchema: string | undefined,
  analyze: boolean,
): Promise<TableWriter> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    ...(pgSchema ? { options: `-c search_path=${pgSchema}` } : {}),
  });
  await client.connect();
  const buffers = new Map<string, Row[]>();
  const BATCH = 20_000;
  const tableOrder = Object.keys(TABLES);
  /** Flushes a table after every table before it (its parents), so each foreign key finds its row. */
  const flush = async (table: string) => {
    for (const parent of tableOrder.slice(0, tableOrder.indexOf(table))) await flushOne(parent);
    await flushOne(table);
  };
  const flushOne = async (table: string) => {
    const rows = buffers.get(table);
    if (!rows || rows.length === 0) return;
    const columns = TABLES[table]!;
    const arrays = columns.map((_, index) => rows.map((row) => row[index] ?? null));
    await client.query(
      `insert into ${table} (${columns.map(([name]) => name).join(', ')})
       select * from unnest(${columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')})`,
      arrays,
    );
    buffers.set(table, []);
  };
  const achievements = (await client.query<CatalogueEntry>(CATALOGUE_QUERY)).rows;
  await client.query('begin');
  return {
    achievements: async () => achievements,
    insert: async (table, row) => {
      let rows = buffers.get(table);
      if (!rows) buffers.set(table, (rows = []));
      rows.push(row);
      if (rows.length >= BATCH) await flush(table);
    },
    finish: async () => {
      // Parents before children, so the foreign keys hold at every statement.
      for (const table of tableOrder) await flushOne(table);
      for (const table of TABLES_WITH_IDS) {
        await client.query(
          `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 1))`,
        );
      }
      await client.query('commit');
      // Table by table: a bare ANALYZE would visit every schema of the database.
      if (analyze)
        for (const table of [...tableOrder, 'blood_stock', 'change_counters'])
          await client.query(`analyze ${table}`);
      await client.end();
    },
  };
}

// ---------------------------------------------------------------- the history

interface DonationRecordRow {
  id: number;
  donorId: number;
  group: BloodGroup;
  units: number;
  day: number;
  status: 'pending' | 'cancelled' | 'rejected' | 'deferred' | 'collected' | 'released' | 'discarded';
  createdAt: string;
  /** Cancelled (by the donor), rejected, or screened (the collection or the failed screening). */
  decidedAt: string | null;
  /** The four markers of a discarded donation; null otherwise. */
  reactive: InfectionTest[] | null;
}

/** The donor gave blood (PRODUCT.md 3.4): the game credits these, the interval counts from them. */
const isCollected = (donation: DonationRecordRow) =>
  donation.status === 'collected' || donation.status === 'released' || donation.status === 'discarded';
/** Collections of the last days are still in testing. */
const TESTING_DAYS = 3;
/** The donation sites of the scale data, each open every day. */
const SCALE_SITES = [
  { name: 'Central Blood Bank', address: '1 Hospital Road' },
  { name: 'Town Hall', address: '12 Market Street' },
  { name: 'University Campus', address: '4 College Avenue' },
  { name: 'Mobile Unit North', address: '88 Ring Road' },
] as const;
const SITE_HOURS = { open: '08:00', close: '18:00' };
const SITE_SLOT_MINUTES = 15;
const SITE_CAPACITY = 4;
const SITE_BOOKINGS_SINCE_DAYS = 14;
/** The laboratory's results come this many days after the collection. */
const RESULTS_AFTER_DAYS = 2;
const SCREENING_DEFERRAL_DAYS = DEFAULT_SCREENING_THRESHOLDS.deferral_days;
const PERMANENT_MARKERS: readonly InfectionTest[] = ['hiv', 'hbv', 'hcv'];
/** Staff reject a booking before collection: the donor did not come. */
const REJECTION_REASON = 'You did not come to your appointment. Please book again.';
const MANUAL_DEFERRAL_REASONS = [
  'Travelled to a malaria-endemic area.',
  'Started a course of antibiotics.',
  'Recent tattoo.',
  'Pregnancy.',
];

/** Measurements within every threshold; with `failing`, haemoglobin below it. */
function screeningValues(failing: boolean): CollectionInput {
  return {
    haemoglobin_g_dl: failing ? int(110, 124) / 10 : int(128, 165) / 10,
    weight_kg: int(520, 950) / 10,
    bp_systolic: int(105, 145),
    bp_diastolic: int(65, 90),
    pulse: int(58, 92),
  };
}

interface UnitRecord {
  id: number;
  group: BloodGroup;
  component: Component;
  /** The whole-blood bag a component was separated from. */
  parent: UnitRecord | null;
  donationId: number | null;
  /** The donor of a donated unit (the lookback finds their units). */
  donorId: number | null;
  collectedDay: number;
  status: 'available' | 'issued' | 'discarded' | 'quarantined' | 'processed';
  holdReason: 'testing' | 'lookback' | null;
  requestId: number | null;
  issuedAt: string | null;
  discardedAt: string | null;
  discardReason: string | null;
  createdAt: string;
}

/**
 * Writes the whole history. `today` is the server's calendar day (UTC unless TIMEZONE says
 * otherwise; a day's difference does not matter to a benchmark).
 */
export async function seedDatabase(
  target: SeedTarget,
  scale: number,
  today = new Date(),
): Promise<SeedResult> {
  const started = Date.now();
  if (target.migrate !== false) {
    // The server's own migrations create the schema, exactly as production has it.
    const handle = openDatabase(
      target.databaseUrl ? { databaseUrl: target.databaseUrl } : { sqliteFile: target.sqliteFile! },
    );
    await migrateToLatest(handle.db);
    await handle.close();
  }

  const writer = target.databaseUrl
    ? await postgresWriter(target.databaseUrl, target.pgSchema, target.analyze !== false)
    : sqliteWriter(target.sqliteFile!, target.analyze !== false);
  const counts = countsForScale(scale);
  const todayDay = dayOf(today);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  let activities = 0;
  const activityRows: Row[] = [];
  const addActivity = (userId: number, kind: string, message: string, at: string) => {
    activityRows.push([userId, kind, message, at]);
  };

  // ---- users: the admin (id 1), donors (2..), patients
  const adminId = 1;
  const donorBase = 2;
  const patientBase = donorBase + counts.donors;
  const userCreatedDay = (index: number) => todayDay - 2_400 + (index % 300);
  const at0 = instantOn(todayDay - 2_500);
  await writer.insert('users', [
    adminId,
    BENCH_ADMIN,
    BENCH_ADMIN,
    passwordHash,
    'ADMIN',
    null,
    null,
    null,
    null,
    null,
    null,
    1,
    at0,
    at0,
    null,
  ]);
  const donorGroups: BloodGroup[] = [];
  const donorActive: boolean[] = [];
  for (let index = 0; index < counts.donors; index++) {
    const id = donorBase + index;
    const group = weightedGroup();
    donorGroups.push(group);
    // 1 in 100 donors has since been deactivated (deleted): their history stays.
    const active = index % 100 !== 99;
    donorActive.push(active);
    const created = instantOn(userCreatedDay(index));
    const username = donorUsername(id);
    await writer.insert('users', [
      id,
      username,
      username,
      passwordHash,
      'DONOR',
      pick(FIRST_NAMES),
      pick(LAST_NAMES),
      `${username}@example.org`,
      group,
      `${int(1, 200)} Main Street`,
      `98${String(int(0, 99_999_999)).padStart(8, '0')}`,
      active ? 1 : 0,
      created,
      created,
      active ? null : instantOn(todayDay - int(1, 300)),
    ]);
  }
  for (let index = 0; index < counts.patients; index++) {
    const id = patientBase + index;
    const created = instantOn(userCreatedDay(index));
    const username = `patient${index + 1}`;
    await writer.insert('users', [
      id,
      username,
      username,
      passwordHash,
      'PATIENT',
      pick(FIRST_NAMES),
      pick(LAST_NAMES),
      `${username}@example.org`,
      weightedGroup(),
      `${int(1, 200)} Lake Road`,
      `97${String(int(0, 99_999_999)).padStart(8, '0')}`,
      1,
      created,
      created,
      null,
    ]);
    await writer.insert('patients', [id, pick(REASONS), int(1, 90), pick(DOCTORS)]);
  }

  // ---- sites (PRODUCT.md 3.6): every day 08:00-18:00 in 15-minute slots. Bookings of the last
  // SITE_BOOKINGS_SINCE_DAYS days and every pending one hold a place (site and slot), never more
  // than a slot takes; older donations were booked by date, before the bank had sites.
  const everyDay = JSON.stringify(sameHoursEveryDay(SITE_HOURS));
  for (const [index, site] of SCALE_SITES.entries()) {
    await writer.insert('sites', [index + 1, site.name, site.address, 1, everyDay, SITE_SLOT_MINUTES, SITE_CAPACITY, '[]', at0, at0]);
  }
  const slotStarts = slotStartsOn({ hours: JSON.parse(everyDay) as WeeklyHours, slot_minutes: SITE_SLOT_MINUTES, closed_dates: [] }, isoDate(todayDay));
  const placesTakenOnDay = new Map<number, number>();
  /** The next free place of a day: site after site, then the next slot; null once every place is taken. */
  const placeOn = (day: number): { siteId: number; slot: string } | null => {
    const taken = placesTakenOnDay.get(day) ?? 0;
    placesTakenOnDay.set(day, taken + 1);
    const perRound = SCALE_SITES.length;
    const round = Math.floor(taken / perRound);
    const slot = slotStarts[round % slotStarts.length];
    if (slot === undefined || taken >= perRound * slotStarts.length * SITE_CAPACITY) return null;
    return { siteId: (taken % perRound) + 1, slot };
  };

  // ---- donations: about ten per donor, at least 90 days apart; only the latest may be pending
  const perDonor = new Array<number>(counts.donors).fill(0).map(() => int(1, 19));
  let difference = counts.donations - perDonor.reduce((sum, value) => sum + value, 0);
  while (difference !== 0) {
    const index = int(0, counts.donors - 1);
    if (difference > 0 && perDonor[index]! < 30) {
      perDonor[index]!++;
      difference--;
    } else if (difference < 0 && perDonor[index]! > 1) {
      perDonor[index]!--;
      difference++;
    }
  }
  const donations: DonationRecordRow[] = [];
  const donationsByDonor: DonationRecordRow[][] = [];
  let donationId = 0;
  let pendingDonations = 0;
  let reactiveCount = 0;
  for (let index = 0; index < counts.donors; index++) {
    const donorId = donorBase + index;
    const count = perDonor[index]!;
    const hasPending = donorActive[index] && random() < 0.1;
    // Walk back from the latest donation.
    let day = hasPending ? todayDay + int(0, 20) : todayDay - int(0, 200);
    const days: number[] = [];
    for (let n = 0; n < count; n++) {
      days.unshift(day);
      day -= DONATION_INTERVAL_DAYS + int(0, 60);
    }
    const own: DonationRecordRow[] = [];
    for (let n = 0; n < count; n++) {
      const isLatest = n === count - 1;
      const donationDay = days[n]!;
      const roll = random();
      let status: DonationRecordRow['status'] =
        roll < 0.02 ? 'cancelled' : roll < 0.05 ? 'rejected' : roll < 0.09 ? 'deferred' : 'released';
      let reactive: InfectionTest[] | null = null;
      if (isLatest && hasPending) status = 'pending';
      else if (status === 'released' && donationDay > todayDay - TESTING_DAYS) status = 'collected';
      else if (status === 'released' && isLatest && donationDay >= todayDay - 200 && random() < 0.005) {
        // A reactive test: only a donor's latest donation (a deferral follows it), in the units' recent past.
        status = 'discarded';
        // Every other one syphilis alone (deferred for a year), the others HIV, HBV or HCV (for good).
        reactive = reactiveCount++ % 2 === 0 ? [pick(PERMANENT_MARKERS)] : ['syphilis'];
      }
      const createdDay =
        status === 'pending'
          ? Math.min(todayDay, donationDay) - int(0, 3)
          : status === 'cancelled'
            ? donationDay - int(2, 10)
            : donationDay - int(0, 10);
      const record: DonationRecordRow = {
        id: ++donationId,
        donorId,
        group: donorGroups[index]!,
        units: random() < 0.7 ? 1 : 2,
        day: donationDay,
        status,
        createdAt: instantOn(createdDay),
        decidedAt:
          status === 'pending' ? null : instantOn(status === 'cancelled' ? createdDay + 1 : donationDay),
        reactive,
      };
      if (status === 'pending') pendingDonations++;
      own.push(record);
      donations.push(record);
    }
    donationsByDonor.push(own);
  }
  const donationsByStatus: Record<DonationRecordRow['status'], number> = {
    pending: 0,
    cancelled: 0,
    rejected: 0,
    deferred: 0,
    collected: 0,
    released: 0,
    discarded: 0,
  };
  for (const donation of donations) donationsByStatus[donation.status]++;
  const resultsAt = (donation: DonationRecordRow) => instantOn(donation.day + RESULTS_AFTER_DAYS);
  const outcomeReasons = new Map<number, string>();
  let deferralCount = 0;
  for (const donation of donations) {
    const previous = donationsByDonor[donation.donorId - donorBase]!.find(
      (other) => other.id === donation.id - 1,
    );
    // The screening at collection, and what it or the laboratory found (confidential).
    const screened = donation.status === 'deferred' || isCollected(donation);
    const failing = donation.status === 'deferred';
    const values = screened ? screeningValues(failing) : undefined;
    if (values && failing)
      outcomeReasons.set(donation.id, failedScreeningReasons(values, DEFAULT_SCREENING_THRESHOLDS).join(' '));
    // Cancelled and rejected bookings gave their place back: they take none here.
    const holdsPlace = donation.status !== 'cancelled' && donation.status !== 'rejected';
    const place = holdsPlace && (donation.status === 'pending' || donation.day >= todayDay - SITE_BOOKINGS_SINCE_DAYS) ? placeOn(donation.day) : null;
    if (donation.reactive)
      outcomeReasons.set(
        donation.id,
        `Reactive: ${donation.reactive.map((test) => INFECTION_TEST_LABELS[test]).join(', ')}.`,
      );
    await writer.insert('donations', [
      donation.id,
      donation.donorId,
      donation.group,
      donation.units,
      isoDate(donation.day),
      'None',
      previous ? isoDate(previous.day) : null,
      donation.status,
      donation.status === 'rejected' ? REJECTION_REASON : null,
      donation.status === 'pending' ? null : donation.status === 'cancelled' ? donation.donorId : adminId,
      donation.decidedAt,
      donation.createdAt,
      donation.status === 'deferred' || isCollected(donation) ? isoDate(donation.day) : null,
      outcomeReasons.get(donation.id) ?? null,
      place?.siteId ?? null,
      place?.slot ?? null,
    ]);
    // After the donation itself, so its foreign key finds it.
    if (values) {
      await writer.insert('donation_screenings', [
        donation.id,
        values.haemoglobin_g_dl,
        values.weight_kg,
        values.bp_systolic,
        values.bp_diastolic,
        values.pulse,
        failing ? 0 : 1,
        adminId,
        donation.decidedAt,
      ]);
    }
    if (donation.status === 'released' || donation.status === 'discarded') {
      const marker = (test: InfectionTest) => (donation.reactive?.includes(test) ? 'reactive' : 'negative');
      await writer.insert('donation_test_results', [
        donation.id,
        marker('hiv'),
        marker('hbv'),
        marker('hcv'),
        marker('syphilis'),
        donation.group,
        adminId,
        resultsAt(donation),
      ]);
    }
  }

  // ---- deferrals: a failed screening (30 days from the collection day), a reactive test (for good,
  // or a year for syphilis alone), and a few set by hand on donors with nothing booked
  const deferralRows: Row[] = [];
  for (const donation of donations) {
    if (donation.status === 'deferred') {
      deferralRows.push([
        donation.donorId,
        'temporary',
        isoDate(donation.day + SCREENING_DEFERRAL_DAYS),
        outcomeReasons.get(donation.id)!,
        'screening',
        donation.id,
        adminId,
        donation.decidedAt,
        null,
        null,
        null,
      ]);
    }
    if (donation.status === 'discarded') {
      const permanent = donation.reactive!.some((test) => PERMANENT_MARKERS.includes(test));
      deferralRows.push([
        donation.donorId,
        permanent ? 'permanent' : 'temporary',
        permanent ? null : isoDate(donation.day + RESULTS_AFTER_DAYS + SYPHILIS_DEFERRAL_DAYS),
        outcomeReasons.get(donation.id)!,
        'test',
        donation.id,
        adminId,
        resultsAt(donation),
        null,
        null,
        null,
      ]);
    }
  }
  for (let index = 0; index < counts.donors; index++) {
    const latest = donationsByDonor[index]!.at(-1);
    // One donor in 250 (with nothing booked and no reactive result).
    if (index % 250 !== 17 || !donorActive[index] || latest?.status === 'pending' || latest?.status === 'discarded')
      continue;
    const createdDay = todayDay - int(1, 60);
    // One in three was lifted since.
    const lifted = random() < 1 / 3;
    deferralRows.push([
      donorBase + index,
      'temporary',
      isoDate(todayDay + int(10, 180)),
      pick(MANUAL_DEFERRAL_REASONS),
      'manual',
      null,
      adminId,
      instantOn(createdDay),
      lifted ? instantOn(createdDay + 1) : null,
      lifted ? adminId : null,
      lifted ? 'Cleared by the doctor.' : null,
    ]);
  }
  // In the order they were set, as ids would be in service.
  deferralRows.sort((a, b) => ((a[7] as string) < (b[7] as string) ? -1 : 1));
  for (const row of deferralRows) await writer.insert('deferrals', row);
  deferralCount = deferralRows.length;
  const deferralsByDonor = new Map<number, Row[]>();
  for (const row of deferralRows) {
    const list = deferralsByDonor.get(row[0] as number) ?? [];
    list.push(row);
    deferralsByDonor.set(row[0] as number, list);
  }

  // ---- the game: rewards, achievements and profiles derived from the collected donations (credited
  // at collection, PRODUCT.md 3.4; every reward already seen) by the game's own rules
  const catalogue = await writer.achievements();
  let earnedCount = 0;
  for (let index = 0; index < counts.donors; index++) {
    const donorId = donorBase + index;
    const own = donationsByDonor[index]!;
    const rewarded = own.filter(isCollected);
    const dates = rewarded.map((donation) => isoDate(donation.day));
    // Each achievement is earned at the first donation after which its rule holds.
    const earned = new Map<number, string>();
    rewarded.forEach((donation, position) => {
      const record = donationRecordOf(dates.slice(0, position + 1));
      for (const achievement of catalogue) {
        if (!earned.has(achievement.id) && deserves(achievement, record)) earned.set(achievement.id, donation.decidedAt!);
      }
    });
    for (const donation of rewarded) {
      await writer.insert('game_rewards', [donation.id, donorId, POINTS_PER_DONATION, donation.decidedAt, donation.decidedAt]);
    }
    let points = rewarded.length * POINTS_PER_DONATION;
    for (const [achievementId, earnedAt] of earned) {
      points += catalogue.find((candidate) => candidate.id === achievementId)!.points_reward;
      earnedCount++;
      await writer.insert('earned_achievements', [donorId, achievementId, earnedAt, earnedAt]);
    }
    const reachedAt = rewarded.at(-1)?.decidedAt ?? instantOn(userCreatedDay(index));
    await writer.insert('game_profiles', [
      index + 1,
      donorId,
      points,
      levelForPoints(points),
      donationRecordOf(dates).currentStreak,
      reachedAt,
      instantOn(userCreatedDay(index)),
      reachedAt,
    ]);
  }

  // ---- units: one bag per unit of the latest collected donations (10% received by hand): those in
  // testing and the discarded ones first (each has its units), then the latest released
  const collected = donations.filter((donation) => isCollected(donation) && donation.day <= todayDay);
  const releasedLast = (donation: DonationRecordRow) => (donation.status === 'released' ? 1 : 0);
  collected.sort((a, b) => releasedLast(a) - releasedLast(b) || b.day - a.day || b.id - a.id);
  const donationById = new Map(donations.map((donation) => [donation.id, donation]));
  const units: UnitRecord[] = [];
  let unitId = 0;
  const newUnit = (
    unit: Pick<UnitRecord, 'group' | 'donationId' | 'donorId' | 'collectedDay' | 'createdAt'> &
      Partial<Pick<UnitRecord, 'component' | 'parent'>>,
  ): UnitRecord => ({
    component: 'whole_blood',
    parent: null,
    ...unit,
    id: 0,
    status: 'available',
    holdReason: null,
    requestId: null,
    issuedAt: null,
    discardedAt: null,
    discardReason: null,
  });
  for (const donation of collected) {
    if (units.length >= counts.units) break;
    for (let n = 0; n < donation.units && units.length < counts.units; n++) {
      const bag = newUnit({
        group: donation.group,
        donationId: donation.id,
        donorId: donation.donorId,
        collectedDay: donation.day,
        createdAt: donation.decidedAt!,
      });
      units.push(bag);
      // Separated on the day of collection (platelets can only be then): red cells and plasma, some
      // platelets too, as many as the unit count still allows.
      if (random() < PROCESSED_SHARE && units.length < counts.units) {
        bag.status = 'processed';
        const components: Component[] = random() < PLATELETS_SHARE ? ['red_cells', 'plasma', 'platelets'] : ['red_cells', 'plasma'];
        for (const component of components.slice(0, counts.units - units.length)) {
          units.push(newUnit({ ...bag, component, parent: bag, createdAt: instantAfter(bag.createdAt, 10 * 60_000) }));
        }
      }
      if (random() < 0.1 && units.length < counts.units) {
        const day = donation.day - int(0, 3);
        units.push(
          newUnit({
            group: weightedGroup(),
            component: pick(RECEIVED_COMPONENTS),
            donationId: null,
            donorId: null,
            collectedDay: day,
            createdAt: instantOn(day),
          }),
        );
      }
    }
  }
  units.sort((a, b) => a.collectedDay - b.collectedDay);
  /** Donors with a reactive result: the collection day of the discarded donation. */
  const reactiveDay = new Map<number, number>();
  for (const donation of donations) if (donation.status === 'discarded') reactiveDay.set(donation.donorId, donation.day);
  /** A unit the lookback of its donor's reactive result reaches: collected in the 12 months before. */
  const inLookback = (unit: UnitRecord) => {
    const day = unit.donorId === null ? undefined : reactiveDay.get(unit.donorId);
    if (day === undefined) return false;
    const resultsDay = day + RESULTS_AFTER_DAYS;
    return isoDate(unit.collectedDay) >= addMonths(isoDate(resultsDay), -LOOKBACK_MONTHS) && unit.collectedDay < day;
  };
  for (const unit of units) {
    unit.id = ++unitId;
    // A separated bag stays `processed` whatever becomes of its components.
    if (unit.status === 'processed') continue;
    const donation = unit.donationId === null ? undefined : donationById.get(unit.donationId);
    if (donation?.status === 'collected') {
      unit.status = 'quarantined';
      unit.holdReason = 'testing';
      continue;
    }
    if (donation?.status === 'discarded') {
      unit.status = 'discarded';
      unit.discardedAt = resultsAt(donation);
      unit.discardReason = REACTIVE_DISCARD_REASON;
      continue;
    }
    const expiresDay = unit.collectedDay + SHELF_LIFE_DAYS[unit.component];
    const roll = random();
    if (expiresDay >= todayDay) unit.status = roll < 0.65 ? 'available' : 'issued';
    else unit.status = roll < 0.75 ? 'issued' : roll < 0.97 ? 'discarded' : 'available';
    // Lookback: a reactive donor's earlier units not issued were still on the shelf (expired units
    // are cleared only now and then, as the 3% above); the result put them on hold.
    if (inLookback(unit) && unit.status !== 'issued') {
      unit.status = 'quarantined';
      unit.holdReason = 'lookback';
      continue;
    }
    if (unit.status === 'issued') {
      // A donated unit is stock once its results are in.
      const firstDay = unit.collectedDay + (unit.donationId === null ? 1 : RESULTS_AFTER_DAYS + 1);
      const lastDay = Math.min(expiresDay, todayDay);
      unit.issuedAt = instantOn(int(firstDay > lastDay ? lastDay : firstDay, lastDay));
    }
    if (unit.status === 'discarded') {
      unit.discardedAt = instantOn(expiresDay + int(1, 3));
      unit.discardReason = DISCARD_MESSAGES.expiredReason;
    }
  }

  // ---- requests: the issued units grouped into approved requests; then pending, rejected, cancelled ones
  // Per group and requested component: a red-cell request is filled from red cells and whole blood.
  const issuedByGroup = new Map<string, { group: BloodGroup; component: Component; list: UnitRecord[] }>();
  for (const unit of units) {
    if (unit.status !== 'issued') continue;
    const component: Component = unit.component === 'whole_blood' ? 'red_cells' : unit.component;
    const key = `${unit.group} ${component}`;
    const entry = issuedByGroup.get(key) ?? { group: unit.group, component, list: [] };
    entry.list.push(unit);
    issuedByGroup.set(key, entry);
  }
  const issuedTotal = [...issuedByGroup.values()].reduce((sum, entry) => sum + entry.list.length, 0);
  const meanPerRequest = Math.min(9, Math.max(2.5, issuedTotal / (counts.requests * 0.75)));
  interface RequestRecord {
    id: number;
    patientId: number;
    group: BloodGroup;
    component: Component;
    units: number;
    requiredDay: number;
    status: string;
    createdAt: string;
    decidedAt: string | null;
    issuedGroup: BloodGroup | null;
    hospital: string;
  }
  const requests: RequestRecord[] = [];
  const patientId = () => patientBase + int(0, counts.patients - 1);
  for (const { group, component, list } of issuedByGroup.values()) {
    list.sort((a, b) => (a.issuedAt! < b.issuedAt! ? -1 : 1));
    let position = 0;
    while (position < list.length) {
      const size = Math.min(
        10,
        list.length - position,
        Math.max(1, Math.round(meanPerRequest * (0.5 + random()))),
      );
      const chunk = list.slice(position, position + size);
      position += size;
      const issuedAt = chunk.at(-1)!.issuedAt!;
      const issuedDay = dayOf(new Date(issuedAt));
      const request: RequestRecord = {
        id: 0,
        patientId: patientId(),
        group,
        component,
        units: chunk.length,
        requiredDay: issuedDay + int(0, 5),
        status: 'approved',
        createdAt: instantOn(issuedDay - int(1, 5)),
        decidedAt: issuedAt,
        issuedGroup: group,
        hospital: pick(HOSPITALS),
      };
      for (const unit of chunk) unit.issuedAt = issuedAt;
      requests.push(request);
      (request as RequestRecord & { chunk: UnitRecord[] }).chunk = chunk;
    }
  }
  const remaining = Math.max(0, counts.requests - requests.length);
  const pendingRequests = Math.round(remaining * 0.2);
  for (let n = 0; n < remaining; n++) {
    const status = n < pendingRequests ? 'pending' : n % 2 === 0 ? 'rejected' : 'cancelled';
    const createdDay = status === 'pending' ? todayDay - int(0, 14) : todayDay - int(15, 1_200);
    requests.push({
      id: 0,
      patientId: patientId(),
      group: weightedGroup(),
      component: pick(REQUESTED_COMPONENTS),
      units: int(1, 4),
      requiredDay: status === 'pending' ? todayDay + int(0, 30) : createdDay + int(0, 10),
      status,
      createdAt: instantOn(createdDay),
      decidedAt: status === 'pending' ? null : instantOn(createdDay + 1),
      issuedGroup: null,
      hospital: pick(HOSPITALS),
    });
  }
  // Ids follow submission order, as they would in service.
  requests.sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
  requests.forEach((request, index) => {
    request.id = index + 1;
    for (const unit of (request as RequestRecord & { chunk?: UnitRecord[] }).chunk ?? [])
      unit.requestId = request.id;
  });
  for (const request of requests) {
    await writer.insert('blood_requests', [
      request.id,
      request.patientId,
      request.group,
      request.units,
      isoDate(request.requiredDay),
      pick(DOCTORS),
      request.hospital,
      pick(REASONS),
      request.status,
      request.status === 'rejected' ? 'Not enough information' : null,
      request.issuedGroup,
      request.status === 'approved' || request.status === 'rejected' ? adminId : null,
      request.decidedAt,
      request.createdAt,
      request.component,
    ]);
  }
  for (const unit of units) {
    await writer.insert('blood_units', [
      unit.id,
      unit.group,
      unit.component,
      unit.parent?.id ?? null,
      unit.donationId === null ? 'manual' : 'donation',
      unit.donationId,
      isoDate(unit.collectedDay),
      expiryDateOf(isoDate(unit.collectedDay), SHELF_LIFE_DAYS[unit.component]),
      unit.status,
      unit.holdReason,
      unit.requestId,
      unit.issuedAt,
      unit.discardedAt,
      unit.discardReason,
      unit.createdAt,
    ]);
  }

  // ---- activity feeds, in each user's own chronological order (the feed is read newest id first)
  const flushActivities = async () => {
    activityRows.sort((a, b) => ((a[3] as string) < (b[3] as string) ? -1 : 1));
    for (const row of activityRows) await writer.insert('activities', row);
    activities += activityRows.length;
    activityRows.length = 0;
  };
  for (let index = 0; index < counts.donors; index++) {
    const donorId = donorBase + index;
    for (const donation of donationsByDonor[index]!) {
      const feed = { date: isoDate(donation.day), units: donation.units };
      addActivity(
        donorId,
        'donation_submitted',
        donationActivityMessages.submitted(feed),
        donation.createdAt,
      );
      if (donation.status === 'cancelled')
        addActivity(donorId, DONATION_ACTIVITY_KINDS.cancelled, donationActivityMessages.cancelled(feed), donation.decidedAt!);
      if (isCollected(donation))
        addActivity(
          donorId,
          DONATION_ACTIVITY_KINDS.collected,
          donationActivityMessages.collected(feed, POINTS_PER_DONATION),
          donation.decidedAt!,
        );
      if (donation.status === 'released')
        addActivity(donorId, DONATION_ACTIVITY_KINDS.released, donationActivityMessages.released(feed), resultsAt(donation));
      if (donation.status === 'discarded')
        addActivity(donorId, DONATION_ACTIVITY_KINDS.followUp, donationActivityMessages.followUp(), resultsAt(donation));
      if (donation.status === 'rejected')
        addActivity(
          donorId,
          DONATION_ACTIVITY_KINDS.rejected,
          donationActivityMessages.rejected(feed, REJECTION_REASON),
          donation.decidedAt!,
        );
    }
    // Deferrals: the donor learns that they are deferred and until when, never why.
    for (const row of deferralsByDonor.get(donorId) ?? []) {
      const [, type, until, , , , , createdAt, liftedAt] = row as [number, 'temporary' | 'permanent', string | null, string, string, number | null, number, string, string | null];
      addActivity(donorId, DEFERRAL_ACTIVITY_KINDS.set, deferralActivityMessages.set({ type, until }), createdAt);
      if (liftedAt) addActivity(donorId, DEFERRAL_ACTIVITY_KINDS.lifted, deferralActivityMessages.lifted(liftedAt.slice(0, 10)), liftedAt);
    }
    await flushActivities();
  }
  const requestsByPatient = new Map<number, RequestRecord[]>();
  for (const request of requests) {
    const list = requestsByPatient.get(request.patientId) ?? [];
    list.push(request);
    requestsByPatient.set(request.patientId, list);
  }
  for (const [patient, list] of requestsByPatient) {
    for (const request of list) {
      const forActivity = {
        patient_id: patient,
        bloodgroup: request.group,
        component: request.component,
        units: request.units,
        required_date: isoDate(request.requiredDay),
      };
      addActivity(
        patient,
        'request_submitted',
        requestActivityMessage(forActivity, { type: 'submitted' }),
        request.createdAt,
      );
      if (request.status === 'approved')
        addActivity(
          patient,
          'request_approved',
          requestActivityMessage(forActivity, { type: 'approved', issuedBloodgroup: request.group }),
          request.decidedAt!,
        );
      if (request.status === 'rejected')
        addActivity(
          patient,
          'request_rejected',
          requestActivityMessage(forActivity, { type: 'rejected', reason: 'Not enough information' }),
          request.decidedAt!,
        );
      if (request.status === 'cancelled')
        addActivity(
          patient,
          'request_cancelled',
          requestActivityMessage(forActivity, { type: 'cancelled' }),
          request.decidedAt!,
        );
    }
    await flushActivities();
  }

  await writer.finish();
  const donorIds = donationsByDonor.flatMap((_, index) => (donorActive[index] ? [donorBase + index] : []));
  return {
    counts: {
      ...counts,
      requests: requests.length,
      units: units.length,
      activities,
      earnedAchievements: earnedCount,
      pendingRequests,
      pendingDonations,
      cancelledDonations: donationsByStatus.cancelled,
      rejectedDonations: donationsByStatus.rejected,
      deferredDonations: donationsByStatus.deferred,
      collectedDonations: donationsByStatus.collected,
      releasedDonations: donationsByStatus.released,
      discardedDonations: donationsByStatus.discarded,
      deferrals: deferralCount,
      unitsInTesting: units.filter((unit) => unit.holdReason === 'testing').length,
      unitsOnLookbackHold: units.filter((unit) => unit.holdReason === 'lookback').length,
    },
    adminId,
    donorIds,
    patientIds: Array.from({ length: counts.patients }, (_, index) => patientBase + index),
    seconds: (Date.now() - started) / 1000,
  };
}

// ---------------------------------------------------------------- command line

if (import.meta.url === `file://${process.argv[1]}`) {
  const argument = (name: string) => {
    const index = process.argv.indexOf(`--${name}`);
    return index >= 0 ? process.argv[index + 1] : undefined;
  };
  const scale = Number(argument('scale') ?? 1);
  const dataDir = path.resolve(argument('data-dir') ?? './data-bench');
  const databaseUrl = process.env.DATABASE_URL || undefined;
  if (!databaseUrl) fs.mkdirSync(dataDir, { recursive: true });
  const result = await seedDatabase(
    databaseUrl ? { databaseUrl } : { sqliteFile: path.join(dataDir, 'bloodbank.db') },
    scale,
  );
  console.log(JSON.stringify({ counts: result.counts, seconds: result.seconds }, null, 2));
}
