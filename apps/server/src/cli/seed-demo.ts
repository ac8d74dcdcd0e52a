import { sql } from 'kysely';
import type { InjectOptions } from 'fastify';
import {
  BLOOD_GROUPS,
  POPULATION_SHARES,
  type BloodGroup,
} from '@bloodbank/shared/blood-groups';
import type { StockEntry } from '@bloodbank/shared/blood-request';
import {
  COMPONENTS,
  compatibleDonorGroups,
  RED_CELL_UNIT_COMPONENTS,
  type Component,
  type SeparatedComponent,
} from '@bloodbank/shared/components';
import {
  DONATION_INTERVAL_DAYS,
  DONOR_HEALTH_OPTIONS,
  EXPIRING_SOON_DAYS,
  PATIENT_DISEASE_OPTIONS,
} from '@bloodbank/shared/constants';
import { PAGE_SIZE, type BloodUnit, type Paged, type ProcessUnitResult } from '@bloodbank/shared/admin';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import type { CollectionInput, TestResultsOutcome } from '@bloodbank/shared/donation-lifecycle';
import type { LeaderboardEntry } from '@bloodbank/shared/game';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { migrateToLatest, type DatabaseHandle } from '../db/database';
import { openDatabaseFromConfig } from '../db/open-from-config';
import { createClock } from '../lib/clock';
import { SENT_PAYLOAD } from '../modules/notifications/job-queue';
import { createAdmin, ensureInitialAdmin } from '../modules/users/admin-accounts';
import { recordAudit } from '../modules/audit/audit.repository';
import { instantAtBankTime } from './bank-time';
import { serverAnswering } from './server-answering';

/**
 * npm run seed:demo: three years of a growing blood bank, played through the real API with a
 * clock that walks from three years ago to now. Every rule (eligibility, the 90-day interval,
 * FEFO issue, game rewards, expiry) is applied by the product's own code, so the data is
 * consistent by construction; the seed only decides who comes in when, the way a bank's life
 * would.
 *
 * The model: donors and patients are drawn from the population's blood group shares. Hospitals
 * ask for more blood as the bank grows. The bank keeps about three weeks of that demand per group
 * on its shelves: ten founding donors give every few months on their own, the others come when the
 * bank calls them because their group runs short. Donors book a few days ahead (a few cancel, a
 * few do not come and staff reject the booking) and are screened on their booked day during opening
 * hours: most are collected (units quarantined while tested, +100 points), some turned away by
 * their haemoglobin (deferred for the screening deferral). Collections are whole blood: on the day,
 * staff separate most of them into red cells and plasma while a group's frozen plasma is under its
 * target (plasma keeps a year, so the bank holds months of it), and into platelets too while the
 * bank has few (platelets keep 5 days and can only be separated on the day of collection); the
 * others stay whole blood. The laboratory's results come three days
 * later: all negative releases the units (and the components made from them) into stock; once, a
 * month before today, a reactive HBV test discards the donation, defers its donor for good and puts
 * the donor's earlier plasma still in the freezer on a lookback hold. Staff defer a donor by hand now and
 * then (one of those deferrals was lifted). Donors open the app after their collection and when
 * they book, as the web app calls donation-complete then, so most rewards have been seen. Staff go
 * through hospital requests every hour and a half in working hours (red cells about to expire
 * first; plasma and platelets from compatible groups by each component's rule), clear expired units
 * every morning, and ask a partner bank for units only when a patient is waiting and nothing
 * compatible is left. Most requests are for red cells; some patients need plasma (bleeding, liver
 * disease, burns) or platelets (dengue, chemotherapy).
 * Nothing happens after the moment the seed runs; today's bookings, the last three days' collections
 * (still in testing) and the last requests are left for the demo admin. Every demo account's
 * password is DEMO_PASSWORD.
 *
 * A reactive result puts the donor's other units of the last 12 months on a lookback hold: red cells
 * (42 days) are long gone by then, 90 days and more after the donor's previous donation, but its
 * plasma may still be in the freezer. The seed gives the one reactive result to a called donor whose
 * earlier plasma is still in stock, so the demo shows a lookback hold the way the rules make it.
 */
export const DEMO_PASSWORD = 'demo-password';
export const DEMO_ADMIN_USERNAME = 'demo_admin';

const HISTORY_DAYS = 3 * 365;
const DONOR_COUNT = 310;
const PATIENT_COUNT = 36;
/** Donors from the bank's first months who give on their own rhythm since: the top of the leaderboard. */
const FOUNDING_DONORS = 10;
/** Red-cell units the hospitals ask for per day, three years ago and today. */
const DEMAND_UNITS_PER_DAY = { first: 0.4, last: 1.5 };
/** The components patients ask for, in units per red-cell unit asked for. */
const COMPONENT_DEMAND = { red_cells: 1, plasma: 0.6, platelets: 0.5 } as const;
type RequestedComponent = keyof typeof COMPONENT_DEMAND;
/** Days of plasma demand the bank keeps frozen per group (plasma keeps 365 days); separating stops above it. */
const PLASMA_TARGET_DAYS = 240;
/** Days of red-cell demand per group staff keep as whole blood (for trauma and exchange transfusions) rather than separate. */
const WHOLE_BLOOD_TARGET_DAYS = 4;
/**
 * Platelets keep 5 days, the first 3 in testing: staff separate them while the platelets in testing
 * cover fewer than this many days of demand (at least one unit), so a few are on the shelf each day.
 */
const PLATELET_TESTING_DAYS = 4;
/** The bank opens its doors to requests once its first donations are on the shelves. */
const FIRST_REQUEST_DAY = 14;
/** Days of demand the bank aims to hold per group (units keep 42 days, so few expire). */
const STOCK_TARGET_DAYS = 20;
/** Of the donors the bank calls, the share who book within the day. */
const CALL_RESPONSE_RATE = 0.6;
/** At collection, the share turned away (haemoglobin below the threshold on the day). */
const DEFERRAL_AT_COLLECTION_RATE = 0.05;
/** Bookings the donor cancels before the day, and bookings whose donor does not come (staff reject them). */
const CANCELLATION_RATE = 0.03;
const NO_SHOW_RATE = 0.02;
/** The bank's donation sites: its own centre, open every day (mornings at weekends), and a weekend drive. */
const DEMO_SITES = (today: string) => [
  {
    name: 'Central Blood Bank',
    address: '14 Hospital Road, Pune',
    hours: {
      monday: { open: '08:00', close: '17:00' },
      tuesday: { open: '08:00', close: '17:00' },
      wednesday: { open: '08:00', close: '17:00' },
      thursday: { open: '08:00', close: '17:00' },
      friday: { open: '08:00', close: '17:00' },
      saturday: { open: '09:00', close: '13:00' },
      sunday: { open: '09:00', close: '13:00' },
    },
    slot_minutes: 15,
    capacity: 3,
    // Public holidays ahead, as staff enter them.
    closed_dates: [addDays(today, 30), addDays(today, 37)],
  },
  {
    name: 'Town Hall Weekend Drive',
    address: '2 Shivaji Nagar, Pune',
    hours: {
      monday: null,
      tuesday: null,
      wednesday: null,
      thursday: null,
      friday: null,
      saturday: { open: '10:00', close: '14:00' },
      sunday: { open: '10:00', close: '14:00' },
    },
    slot_minutes: 20,
    capacity: 2,
  },
];
/** Days from collection to the laboratory's results. */
const LAB_TURNAROUND_DAYS = 3;
/** The one reactive result of the demo: a donation collected about this many days before today. */
const REACTIVE_RESULT_DAYS_AGO = 40;
/** ... and at the latest this many days before today (its results come before today). */
const REACTIVE_RESULT_LAST_DAYS_AGO = 10;
/** Of the donors collected, the share who open the app afterwards (and so see their reward). */
const APP_OPEN_AFTER_COLLECTION_RATE = 0.85;
const REQUEST_UNIT_CHOICES: Record<RequestedComponent, readonly number[]> = {
  red_cells: [1, 1, 1, 2, 2, 2, 3],
  plasma: [1, 2, 2, 2, 3, 4],
  platelets: [1, 1, 1, 1, 2],
};

const FIRST_NAMES = ['Asha', 'Ravi', 'Meera', 'Kiran', 'Farah', 'Arjun', 'Priya', 'Vikram', 'Neha', 'Sanjay', 'Lakshmi', 'Imran', 'Divya', 'Rahul', 'Anita', 'Joseph', 'Sunita', 'Aditya', 'Kavya', 'Manoj', 'Rekha', 'Deepak', 'Pooja', 'Nikhil', 'Sara', 'Tarun', 'Uma', 'Yusuf', 'Zoya', 'Gopal', 'Isha', 'Harish'];
const LAST_NAMES = ['Kulkarni', 'Sharma', 'Iyer', 'Reddy', 'Khan', 'Patel', 'Nair', 'Singh', 'Das', 'Menon', 'Joshi', 'Fernandes', 'Rao', 'Gupta', 'Bose', 'Pillai'];
const HOSPITALS = ['City General Hospital, Ward 4', 'St. Mary Medical Centre, ICU', "Riverside Children's Hospital", 'Lakeview Cancer Institute', 'North Trauma Centre'];
const DOCTORS = ['Dr. Mehta', 'Dr. Fernandes', 'Dr. Rao', 'Dr. Banerjee', 'Dr. Thomas'];
const REASONS: Record<RequestedComponent, readonly string[]> = {
  red_cells: ['Scheduled surgery', 'Road accident, heavy blood loss', 'Chemotherapy support', 'Anaemia treatment', 'Delivery complications', 'Thalassaemia transfusion'],
  plasma: ['Liver disease, clotting factors low', 'Road accident, heavy blood loss', 'Cardiac surgery', 'Burns treatment', 'Delivery complications'],
  platelets: ['Dengue fever, low platelet count', 'Chemotherapy support', 'Leukaemia treatment'],
};

/** Deterministic pseudo-random numbers (mulberry32), so every demo database tells the same story. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const between = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const shuffle = <T>(items: T[]): T[] => {
    for (let index = items.length - 1; index > 0; index -= 1) {
      const other = Math.floor(next() * (index + 1));
      [items[index], items[other]] = [items[other] as T, items[index] as T];
    }
    return items;
  };
  /** A count of events that happen `mean` times on average (Poisson, Knuth's method). */
  const poisson = (mean: number) => {
    const limit = Math.exp(-mean);
    let count = -1;
    for (let product = 1; product > limit; product *= next()) count += 1;
    return count;
  };
  const group = (): BloodGroup => {
    let roll = next();
    for (const candidate of BLOOD_GROUPS) {
      roll -= POPULATION_SHARES[candidate];
      if (roll < 0) return candidate;
    }
    return 'O+';
  };
  return { next, between, pick, shuffle, poisson, group };
}
type Random = ReturnType<typeof randomSource>;

/** `count` people split over the groups by population share (largest remainder), at least one each. */
function groupsByPopulationShare(count: number, random: Random): BloodGroup[] {
  const seats = new Map(BLOOD_GROUPS.map((group) => [group, Math.max(1, Math.floor(POPULATION_SHARES[group] * count))]));
  const byRemainder = [...BLOOD_GROUPS].sort(
    (a, b) => ((POPULATION_SHARES[b] * count) % 1) - ((POPULATION_SHARES[a] * count) % 1),
  );
  for (let left = count - [...seats.values()].reduce((sum, n) => sum + n, 0), index = 0; left > 0; left -= 1, index += 1) {
    const group = byRemainder[index % byRemainder.length] as BloodGroup;
    seats.set(group, (seats.get(group) ?? 0) + 1);
  }
  return random.shuffle(BLOOD_GROUPS.flatMap((group) => Array<BloodGroup>(seats.get(group) ?? 0).fill(group)));
}

/** A unique "first.last" for each person of the demo (512 combinations). */
function nameOf(personIndex: number) {
  const first = FIRST_NAMES[personIndex % FIRST_NAMES.length] as string;
  const last = LAST_NAMES[(Math.floor(personIndex / FIRST_NAMES.length) + personIndex) % LAST_NAMES.length] as string;
  return { first, last, username: `${first}.${last}`.toLowerCase() };
}

interface Session { id: number; username: string; headers: { authorization: string } }

interface DemoDonor {
  index: number;
  group: BloodGroup;
  joinDay: string;
  /** Days between donations of a donor who comes on their own; null for one who comes when called. */
  cadenceDays: number | null;
  nextVisit: string | null;
  lastCollected: string | null;
  /** Days a called donor waits beyond the 90 before the bank calls them again. */
  restDays: number;
  /** The first day a temporary deferral lets them donate again; `permanent` when never. */
  deferredUntil: string | null;
  permanentlyDeferred: boolean;
  session?: Session;
  /** The plasma units separated from this donor's collections (the lookback may find them). */
  plasmaUnitIds: number[];
  /** A booking not collected yet; `cancelOn` the day the donor will cancel it, if they will. */
  pending?: { id: number; date: string; units: number; cancelOn?: string };
}

/** A collection waiting for the laboratory's results, with the plasma and platelet units made from it. */
interface InTesting { id: number; donor: DemoDonor; units: number; wholeBlood: number; plasma: number; platelets: number; resultsOn: string; reactive: boolean }

interface DemoPatient { index: number; group: BloodGroup; joinDay: string; session?: Session }

interface PendingRequest { id: number; bloodgroup: BloodGroup; component: RequestedComponent; units: number }

export interface DemoSeedResult {
  admin: string;
  donor: string;
  patient: string;
  /** Red-cell units (red cells + whole blood) in stock per group, as GET /api/stock's `units`. */
  stockByGroup: Record<BloodGroup, number>;
  /** Every unit per component and status when the seed ended (processed: whole blood separated). */
  unitsByComponent: Record<Component, Record<string, number>>;
  leaderboard: LeaderboardEntry[];
  /** Donations per status, and quarantined units per hold reason, when the seed ended. */
  donationsByStatus: Record<string, number>;
  unitsOnHold: Record<string, number>;
}

/**
 * Plays the history into `database` (migrated, without demo data). `now` is the moment the
 * history ends; nothing is stamped after it. Returns null when the demo data is already there.
 */
export async function seedDemoData(
  database: DatabaseHandle,
  config: Config,
  options: { now?: Date } = {},
): Promise<DemoSeedResult | null> {
  const existingDemo = await database.db
    .selectFrom('users')
    .select('id')
    .where('username_key', '=', DEMO_ADMIN_USERNAME)
    .executeTakeFirst();
  if (existingDemo) {
    if (await demoSeedFinished(database)) return null;
    throw new Error(HALF_SEEDED);
  }

  const endsAt = options.now ?? new Date();
  const timeZone = config.timezone;
  const today = todayIn(timeZone, endsAt);
  const firstDay = addDays(today, -HISTORY_DAYS);
  const random = randomSource(2026);

  // The walking clock: it only moves forward, and every action of a day happens at a time of day
  // that person would act at (staff in working hours), never at or after `endsAt`.
  let current = instantAtBankTime(firstDay, 8 * 60, timeZone);
  const clock = createClock(timeZone, () => current);
  const moveClockTo = (day: string, minuteOfDay: number) => {
    const scheduled = instantAtBankTime(day, minuteOfDay, timeZone).getTime();
    // A few seconds after the previous action at least, so every action has an instant of its own.
    current = new Date(Math.max(scheduled, current.getTime() + random.between(20, 90) * 1000));
  };

  await createAdmin(database.db, DEMO_ADMIN_USERNAME, DEMO_PASSWORD, current.toISOString());
  const app = await buildApp({ ...config, logLevel: 'warn', rateLimitMax: 1_000_000 }, { database, clock, logger: false });
  try {
    const call = async (options: InjectOptions, expected: number[] = [200, 201]) => {
      const response = await app.inject(options);
      if (!expected.includes(response.statusCode)) {
        throw new Error(`${options.method} ${options.url} answered ${response.statusCode}: ${response.body}`);
      }
      return response;
    };
    const signIn = async (username: string): Promise<Session> => {
      const response = await call({ method: 'POST', url: '/api/auth/token', payload: { username, password: DEMO_PASSWORD } });
      const body = response.json() as { access_token: string; user_id: number };
      return { id: body.user_id, username, headers: { authorization: `Bearer ${body.access_token}` } };
    };
    const admin = await signIn(DEMO_ADMIN_USERNAME);

    // ---- the donation sites (PRODUCT.md 3.6): bookings name a site and a time slot
    const siteIds: number[] = [];
    for (const site of DEMO_SITES(today)) {
      siteIds.push((await call({ method: 'POST', url: '/api/admin/sites', headers: admin.headers, payload: site })).json<{ id: number }>().id);
    }
    /**
     * A free place on `date` or the first day after it that has one (a site may be closed that day):
     * the main site unless the donor prefers the weekend drive; the slot follows the donor, so
     * bookings spread over the day.
     */
    const freePlaceFrom = async (donor: DemoDonor, date: string) => {
      for (let day = date, tries = 0; tries < 7; day = addDays(day, 1), tries += 1) {
        const preferred = donor.index % 4 === 0 ? [...siteIds].reverse() : siteIds;
        for (const siteId of preferred) {
          const slots = (await call({ method: 'GET', url: `/api/sites/${siteId}/slots?date=${day}`, headers: admin.headers })).json<{ time: string; available: number }[]>();
          const free = slots.filter((slot) => slot.available > 0);
          if (free.length > 0) return { date: day, site_id: siteId, slot: free[(donor.index * 7) % free.length]!.time };
        }
      }
      return undefined;
    };

    // ---- the people
    const dayAt = (offset: number) => addDays(firstDay, offset);
    const donors: DemoDonor[] = groupsByPopulationShare(DONOR_COUNT, random).map((group, index) => {
      if (index < FOUNDING_DONORS) {
        // The founders join two months apart and give every three to four months: the top of the
        // leaderboard is people with different histories, not a block of equal scores.
        const joinDay = dayAt(index * 60 + random.between(0, 10));
        const cadenceDays = DONATION_INTERVAL_DAYS + 1 + index * 5 + random.between(0, 4);
        return { index, group, joinDay, cadenceDays, nextVisit: joinDay, lastCollected: null, restDays: 0, deferredUntil: null, permanentlyDeferred: false, plasmaUnitIds: [] };
      }
      // The others join as the bank grows (a third in its first months) and come when the bank
      // calls them, once or twice a year: each rests a while of their own beyond the 90 days.
      const joinDay = dayAt(random.next() < 0.35 ? random.between(7, 120) : random.between(120, HISTORY_DAYS - 10));
      return { index, group, joinDay, cadenceDays: null, nextVisit: null, lastCollected: null, restDays: random.between(60, 200), deferredUntil: null, permanentlyDeferred: false, plasmaUnitIds: [] };
    });
    const patients: DemoPatient[] = groupsByPopulationShare(PATIENT_COUNT, random).map((group, index) => ({
      index,
      group,
      joinDay: index < 10 ? dayAt(random.between(1, FIRST_REQUEST_DAY - 1)) : dayAt(random.between(FIRST_REQUEST_DAY, HISTORY_DAYS - 10)),
    }));

    const register = async (kind: 'donor' | 'patient', personIndex: number, group: BloodGroup): Promise<Session> => {
      const { first, last, username } = nameOf(personIndex);
      await call({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          user_type: kind,
          username,
          password: DEMO_PASSWORD,
          first_name: first,
          last_name: last,
          email: `${username}@example.org`,
          bloodgroup: group,
          address: `${10 + (personIndex % 190)} Park Street, Pune`,
          mobile: `98${String(10_000_000 + personIndex * 7919).slice(0, 8)}`,
          ...(kind === 'patient'
            ? { disease: random.pick(PATIENT_DISEASE_OPTIONS), age: 18 + random.between(0, 60), doctorname: random.pick(DOCTORS) }
            : {}),
        },
      });
      return signIn(username);
    };

    // ---- the bank's shelves and queues
    /** GET /api/stock per group: `units` (red cells + whole blood) and each component. */
    const stockEntries = async () => {
      const response = await call({ method: 'GET', url: '/api/stock', headers: admin.headers });
      return Object.fromEntries((response.json() as StockEntry[]).map((row) => [row.bloodgroup, row])) as Record<BloodGroup, StockEntry>;
    };
    /** Red-cell units per group: what a red-cell request can be filled from. */
    const stock = async () =>
      Object.fromEntries(Object.entries(await stockEntries()).map(([group, entry]) => [group, entry.units])) as Record<BloodGroup, number>;
    /** Units of `component` a group can give a request for it: red cells count whole blood too. */
    const inStock = (entry: StockEntry, component: RequestedComponent) => (component === 'red_cells' ? entry.units : entry.components[component]);
    const demandOn = (dayIndex: number) =>
      DEMAND_UNITS_PER_DAY.first + ((DEMAND_UNITS_PER_DAY.last - DEMAND_UNITS_PER_DAY.first) * dayIndex) / HISTORY_DAYS;
    const dayIndexOf = (day: string) => Math.round((Date.parse(day) - Date.parse(firstDay)) / 86_400_000);
    // No floor: a group the hospitals need less than a unit of in that time is not held, so rare
    // units are not collected only to expire; its patients get a compatible group or a partner's units.
    const stockTarget = (group: BloodGroup, dayIndex: number) =>
      Math.round(POPULATION_SHARES[group] * demandOn(dayIndex) * STOCK_TARGET_DAYS);
    const plasmaTarget = (group: BloodGroup, dayIndex: number) =>
      Math.max(1, Math.round(POPULATION_SHARES[group] * demandOn(dayIndex) * COMPONENT_DEMAND.plasma * PLASMA_TARGET_DAYS));
    const wholeBloodTarget = (group: BloodGroup, dayIndex: number) =>
      Math.round(POPULATION_SHARES[group] * demandOn(dayIndex) * WHOLE_BLOOD_TARGET_DAYS);
    const plateletTarget = (dayIndex: number) =>
      Math.max(1, Math.round(demandOn(dayIndex) * COMPONENT_DEMAND.platelets * PLATELET_TESTING_DAYS));
    /** The first day the donor may give again: the interval since their last collection, and any deferral. */
    const eligibleFrom = (donor: DemoDonor) =>
      [donor.lastCollected ? addDays(donor.lastCollected, DONATION_INTERVAL_DAYS) : donor.joinDay, donor.deferredUntil ?? '']
        .sort()
        .at(-1) as string;
    const pendingRequests: PendingRequest[] = [];
    const inTesting: InTesting[] = [];
    let reactiveChosen = false;
    const asha = donors[0] as DemoDonor;

    /** As the web app does after booking, after a collection and when the dashboard opens: unseen rewards, or 409. */
    const openApp = async (donor: DemoDonor) => {
      if (donor.session) await call({ method: 'POST', url: '/api/game/donation-complete', headers: donor.session.headers }, [200, 409]);
    };

    /** An appointment one to five days ahead (or on `onDate`), and not before the donor may give again. */
    const book = async (donor: DemoDonor, day: string, onDate?: string) => {
      if (!donor.session || donor.pending || donor.permanentlyDeferred) return;
      const place = await freePlaceFrom(donor, [onDate ?? addDays(day, random.between(1, 5)), eligibleFrom(donor)].sort().at(-1) as string);
      if (!place) return;
      const { date } = place;
      const units = random.next() < 0.15 ? 2 : 1;
      const response = await call({
        method: 'POST',
        url: '/api/donations',
        headers: donor.session.headers,
        payload: {
          unit: units,
          date,
          disease: random.next() < 0.92 ? 'None' : random.pick(DONOR_HEALTH_OPTIONS),
          ...(donor.lastCollected ? { lastDonation: donor.lastCollected } : {}),
          confirmation: true,
          site_id: place.site_id,
          slot: place.slot,
        },
      });
      // A few donors cancel a booking made at least two days ahead, on a day before it.
      const daysAhead = Math.round((Date.parse(date) - Date.parse(day)) / 86_400_000);
      const cancelOn =
        donor !== asha && daysAhead >= 2 && random.next() < CANCELLATION_RATE ? addDays(day, random.between(1, daysAhead - 1)) : undefined;
      donor.pending = { id: (response.json() as { id: number }).id, date, units, ...(cancelOn ? { cancelOn } : {}) };
      // As the web app does right after booking (409 when no reward waits unseen).
      await openApp(donor);
    };

    const cancel = async (donor: DemoDonor) => {
      if (!donor.pending || !donor.session) return;
      const { id } = donor.pending;
      donor.pending = undefined;
      await call({ method: 'POST', url: `/api/donations/${id}/cancel`, headers: donor.session.headers });
    };

    /** Measurements within every threshold (PRODUCT.md 3.2), one decimal where the form takes one. */
    const passingScreening = (): CollectionInput => ({
      haemoglobin_g_dl: random.between(128, 165) / 10,
      weight_kg: random.between(520, 950) / 10,
      bp_systolic: random.between(105, 145),
      bp_diastolic: random.between(65, 90),
      pulse: random.between(58, 92),
    });

    /** Whether plasma separated from the donor's earlier collections is still in the freezer, in stock. */
    const hasPlasmaInStock = async (donor: DemoDonor) => {
      if (!donor.plasmaUnitIds.length) return false;
      for (let page = 1; ; page += 1) {
        const query = `status=available&component=plasma&bloodgroup=${encodeURIComponent(donor.group)}&pageSize=${PAGE_SIZE.max}&page=${page}`;
        const listed = (await call({ method: 'GET', url: `/api/admin/units?${query}`, headers: admin.headers })).json() as Paged<BloodUnit>;
        if (listed.items.some((unit) => donor.plasmaUnitIds.includes(unit.id))) return true;
        if (page * PAGE_SIZE.max >= listed.total) return false;
      }
    };

    /**
     * On the day of collection, a few minutes after it, staff decide what each whole-blood unit
     * becomes: it stays whole blood while the group's whole blood (in stock and in testing) is under
     * its small target; else it is separated into red cells, plasma and platelets while the platelets
     * in testing (any group) are under theirs, into red cells and plasma while the group's frozen
     * plasma (in stock and in testing) is under its target; else it stays whole blood. The
     * components stay in testing with their parent's donation.
     */
    const separate = async (donor: DemoDonor, day: string, unitIds: readonly number[], testing: InTesting) => {
      const dayIndex = dayIndexOf(day);
      const shelves = await stockEntries();
      const ofGroup = (count: (other: InTesting) => number) =>
        inTesting.reduce((sum, other) => sum + (other.donor.group === donor.group ? count(other) : 0), 0);
      let wholeBlood = shelves[donor.group].components.whole_blood + ofGroup((other) => other.wholeBlood);
      let plasma = shelves[donor.group].components.plasma + ofGroup((other) => other.plasma);
      // Platelets on the shelf now expire before this collection's are released: only those in testing count.
      let platelets = inTesting.reduce((sum, other) => sum + other.platelets, 0);
      for (const unitId of unitIds) {
        let components: SeparatedComponent[] | undefined;
        if (wholeBlood >= wholeBloodTarget(donor.group, dayIndex)) {
          if (platelets < plateletTarget(dayIndex)) components = ['red_cells', 'plasma', 'platelets'];
          else if (plasma < plasmaTarget(donor.group, dayIndex)) components = ['red_cells', 'plasma'];
        }
        if (!components) {
          wholeBlood += 1;
          testing.wholeBlood += 1;
          continue;
        }
        moveClockTo(day, 0); // a minute after the previous action
        const response = await call({ method: 'POST', url: `/api/admin/units/${unitId}/process`, headers: admin.headers, payload: { components } });
        for (const unit of (response.json() as ProcessUnitResult).units) {
          if (unit.component === 'plasma') {
            donor.plasmaUnitIds.push(unit.id);
            plasma += 1;
            testing.plasma += 1;
          }
          if (unit.component === 'platelets') {
            platelets += 1;
            testing.platelets += 1;
          }
        }
      }
    };

    /** The donor comes in on the booked day (or not: staff reject the booking); staff screen them and collect, or turn them away. */
    const collect = async (donor: DemoDonor, day: string) => {
      if (!donor.pending) return;
      const { id, date, units } = donor.pending;
      donor.pending = undefined;
      // A donor who does not come (the next day's daily work marks the booking a no-show), or who
      // phones in unwell, whom staff take off the list with a reason.
      const absence = donor === asha ? 1 : random.next();
      if (absence < NO_SHOW_RATE / 2) return;
      if (absence < NO_SHOW_RATE) {
        await call({ method: 'POST', url: `/api/admin/donations/${id}/reject`, headers: admin.headers, payload: { reason: 'You told us you are unwell. Please book again once you feel better.' } });
        return;
      }
      if (donor !== asha && random.next() < DEFERRAL_AT_COLLECTION_RATE) {
        // Haemoglobin below the threshold on the day: the donation and the donor are deferred.
        const response = await call({
          method: 'POST',
          url: `/api/admin/donations/${id}/collect`,
          headers: admin.headers,
          payload: { ...passingScreening(), haemoglobin_g_dl: random.between(110, 124) / 10 },
        });
        const result = response.json() as { status: string; deferral?: { until: string | null } };
        if (result.status !== 'deferred') throw new Error(`donation ${id}: expected a failed screening, got ${result.status}`);
        donor.deferredUntil = result.deferral?.until ?? null;
        if (donor.cadenceDays) donor.nextVisit = addDays(day, random.between(35, 60));
        return;
      }
      const response = await call({ method: 'POST', url: `/api/admin/donations/${id}/collect`, headers: admin.headers, payload: passingScreening() });
      const collected = response.json() as { status: string; unit_ids: number[] };
      if (collected.status !== 'collected') throw new Error(`donation ${id}: expected a collection`);
      const hadGivenBefore = donor.lastCollected !== null;
      donor.lastCollected = day;
      if (donor.cadenceDays) donor.nextVisit = addDays(date, donor.cadenceDays);
      // The one reactive result: a called donor with a history, collected about a month before today,
      // whose earlier plasma is still in the freezer (the lookback will find it), or failing such a
      // donor, the last called donor with a history whose results still come before today.
      const reactive =
        !reactiveChosen &&
        hadGivenBefore &&
        donor.cadenceDays === null &&
        day >= addDays(today, -REACTIVE_RESULT_DAYS_AGO) &&
        (day >= addDays(today, -REACTIVE_RESULT_LAST_DAYS_AGO) || (await hasPlasmaInStock(donor)));
      if (reactive) reactiveChosen = true;
      const testing: InTesting = { id, donor, units, wholeBlood: 0, plasma: 0, platelets: 0, resultsOn: addDays(day, LAB_TURNAROUND_DAYS), reactive };
      await separate(donor, day, collected.unit_ids, testing);
      inTesting.push(testing);
      // The feed says "+100 points": most donors look at the app on their way out.
      if (donor === asha || random.next() < APP_OPEN_AFTER_COLLECTION_RATE) await openApp(donor);
    };

    /** The laboratory's results of a collection: all negative releases it; the reactive one discards it. */
    const recordResults = async (testing: InTesting) => {
      inTesting.splice(inTesting.indexOf(testing), 1);
      const response = await call({
        method: 'POST',
        url: `/api/admin/donations/${testing.id}/results`,
        headers: admin.headers,
        payload: {
          hiv: 'negative',
          hbv: testing.reactive ? 'reactive' : 'negative',
          hcv: 'negative',
          syphilis: 'negative',
          bloodgroup: testing.donor.group,
        },
      });
      const outcome = response.json() as TestResultsOutcome;
      if (outcome.status !== (testing.reactive ? 'discarded' : 'released')) {
        throw new Error(`donation ${testing.id}: results gave ${outcome.status}`);
      }
      if (testing.reactive) {
        // HBV defers for good: the bank never calls this donor again.
        testing.donor.permanentlyDeferred = true;
        testing.donor.deferredUntil = null;
      }
    };

    /** Staff defer a donor by hand (travel, medication ...), temporarily. */
    const deferByHand = async (donor: DemoDonor, until: string, reason: string) => {
      const response = await call({
        method: 'POST',
        url: `/api/admin/donors/${donor.session?.id}/deferrals`,
        headers: admin.headers,
        payload: { type: 'temporary', until, reason },
      });
      donor.deferredUntil = until;
      return (response.json() as { id: number }).id;
    };

    const submitRequest = async (patient: DemoPatient, day: string, component: RequestedComponent) => {
      if (!patient.session) return;
      const units = random.pick(REQUEST_UNIT_CHOICES[component]);
      const response = await call({
        method: 'POST',
        url: '/api/requests',
        headers: patient.session.headers,
        payload: {
          bloodgroup: patient.group,
          unit: units,
          date: addDays(day, random.between(0, 2)),
          doctorname: random.pick(DOCTORS),
          hospitaladdress: random.pick(HOSPITALS),
          reason: random.pick(REASONS[component]),
          component,
        },
      });
      pendingRequests.push({ id: (response.json() as { id: number }).id, bloodgroup: patient.group, component, units });
    };

    /** A sitting of the staff: the waiting requests, a few minutes each. */
    const requestRound = async (day: string, dayIndex: number, startMinute: number, clearExpired: boolean) => {
      let minute = startMinute;
      const nextStep = () => {
        moveClockTo(day, minute);
        minute += random.between(3, 11);
      };
      if (clearExpired) {
        nextStep();
        await call({ method: 'POST', url: '/api/admin/units/discard', headers: admin.headers, payload: { expired: true } });
      }
      if (!pendingRequests.length) return;
      const shelves = await stockEntries();
      // Listed first-expiring-first: the first available unseen red-cell unit of a group is its earliest.
      const earliestExpiry = new Map<BloodGroup, string>();
      const units = await call({ method: 'GET', url: `/api/admin/units?status=available&pageSize=${PAGE_SIZE.max}`, headers: admin.headers });
      for (const unit of (units.json() as Paged<BloodUnit>).items) {
        if (!RED_CELL_UNIT_COMPONENTS.includes(unit.component)) continue;
        if (unit.expires_on >= day && !earliestExpiry.has(unit.bloodgroup)) earliestExpiry.set(unit.bloodgroup, unit.expires_on);
      }
      const left = (group: BloodGroup, component: RequestedComponent) => inStock(shelves[group], component);
      const take = (group: BloodGroup, component: RequestedComponent, count: number) => {
        if (component === 'red_cells') shelves[group].units -= count;
        else shelves[group].components[component] -= count;
      };
      for (const request of pendingRequests.splice(0)) {
        nextStep();
        // In the component's order of preference: the patient's own group first (platelets:
        // ABO-identical groups first), each with enough for the whole request.
        const compatible = compatibleDonorGroups(request.component, request.bloodgroup).filter(
          (group) => left(group, request.component) >= request.units,
        );
        let from: BloodGroup | undefined;
        if (request.component === 'red_cells') {
          // Red cells about to expire first, whatever compatible group they are (staff see them on
          // the dashboard); else the patient's own group; else the compatible group with most to spare.
          const expiringSoon = compatible
            .filter((group) => (earliestExpiry.get(group) ?? '9999') <= addDays(day, EXPIRING_SOON_DAYS))
            .sort((a, b) => ((earliestExpiry.get(a) as string) < (earliestExpiry.get(b) as string) ? -1 : 1))[0];
          from =
            expiringSoon ??
            (compatible.includes(request.bloodgroup)
              ? request.bloodgroup
              : compatible.sort((a, b) => left(b, 'red_cells') / (stockTarget(b, dayIndex) + 1) - left(a, 'red_cells') / (stockTarget(a, dayIndex) + 1))[0]);
        } else if (request.component === 'plasma') {
          // The patient's own group; else the compatible group with the most plasma frozen.
          from = compatible.includes(request.bloodgroup) ? request.bloodgroup : compatible.sort((a, b) => left(b, 'plasma') - left(a, 'plasma'))[0];
        } else {
          from = compatible[0];
        }
        if (from) {
          await call({ method: 'POST', url: `/api/admin/requests/${request.id}/approve`, headers: admin.headers, payload: { bloodgroup: from } });
          take(from, request.component, request.units);
        } else if (random.next() < 0.6) {
          // A partner bank sends what the patient needs, collected a few days ago (platelets: a day or two).
          const collectedDaysAgo = request.component === 'platelets' ? random.between(1, 2) : random.between(1, 5);
          await call({
            method: 'POST',
            url: '/api/admin/units',
            headers: admin.headers,
            payload: { bloodgroup: request.bloodgroup, component: request.component, count: request.units, collected_on: addDays(day, -collectedDaysAgo) },
          });
          nextStep();
          await call({ method: 'POST', url: `/api/admin/requests/${request.id}/approve`, headers: admin.headers, payload: { bloodgroup: request.bloodgroup } });
        } else {
          await call({ method: 'POST', url: `/api/admin/requests/${request.id}/reject`, headers: admin.headers, payload: { reason: 'No compatible blood in stock; please contact the blood bank' } });
        }
      }
    };

    // ---- the days
    let liftLater: { id: number; on: string; donor: DemoDonor } | undefined;
    for (let dayIndex = 0; dayIndex <= HISTORY_DAYS; dayIndex += 1) {
      const day = dayAt(dayIndex);
      const isToday = day === today;
      const events: { minute: number; run: () => Promise<void> }[] = [];
      const at = (minute: number, run: () => Promise<void>) => events.push({ minute, run });
      // Just after midnight, the server's daily work: yesterday's unattended bookings become no-shows.
      // (The clock moves without a random draw, so the rest of the history is drawn as before.)
      current = new Date(Math.max(instantAtBankTime(day, 1, timeZone).getTime(), current.getTime() + 1000));
      if (current < endsAt) await app.runDailyWork();

      for (const donor of donors) {
        if (donor.joinDay === day) {
          at(random.between(8 * 60, 21 * 60), async () => {
            donor.session = await register('donor', donor.index, donor.group);
            await call({ method: 'POST', url: '/api/game/profiles', headers: donor.session.headers });
          });
        }
      }
      for (const patient of patients) {
        if (patient.joinDay === day) {
          at(random.between(7 * 60, 12 * 60), async () => {
            patient.session = await register('patient', DONOR_COUNT + patient.index, patient.group);
          });
        }
      }

      // A few donors cancel a booking before its day, from home.
      for (const donor of donors) {
        if (donor.pending?.cancelOn === day) at(random.between(7 * 60, 21 * 60), () => cancel(donor));
      }

      // Donors booked for today come in during opening hours; today's are left for the demo admin.
      // So are the laboratory's results due today: the last three days' collections are still in testing.
      if (!isToday) {
        for (const donor of donors) {
          if (donor.pending && donor.pending.date <= day) at(random.between(8 * 60 + 30, 17 * 60 + 30), () => collect(donor, day));
        }
        for (const testing of inTesting) {
          if (testing.resultsOn <= day) at(random.between(9 * 60, 17 * 60 + 30), () => recordResults(testing));
        }
      }

      // Staff defer a donor by hand now and then: one deferral half a year ago, lifted when the
      // doctor cleared the donor; one three weeks ago, still in force today.
      const deferrable = () =>
        donors.find(
          (donor) =>
            donor.cadenceDays === null && donor.session && !donor.pending && !donor.permanentlyDeferred && !donor.deferredUntil && donor.joinDay < day,
        );
      if (day === addDays(today, -200)) {
        const donor = deferrable();
        if (donor) {
          at(random.between(10 * 60, 16 * 60), async () => {
            const id = await deferByHand(donor, addDays(day, 90), 'Started a course of antibiotics for a chest infection.');
            liftLater = { id, on: addDays(day, 12), donor };
          });
        }
      }
      if (liftLater?.on === day) {
        const { id, donor } = liftLater;
        liftLater = undefined;
        at(random.between(10 * 60, 16 * 60), async () => {
          await call({ method: 'POST', url: `/api/admin/deferrals/${id}/lift`, headers: admin.headers, payload: { reason: 'Course finished early; the doctor cleared the donor.' } });
          donor.deferredUntil = null;
        });
      }
      if (day === addDays(today, -21)) {
        const donor = deferrable();
        if (donor) at(random.between(10 * 60, 16 * 60), async () => void (await deferByHand(donor, addDays(today, 120), 'Travelled to a malaria-endemic area.')));
      }

      // Founders book when their rhythm says; the bank calls the others of a group whose shelf
      // (with what is already booked) is below its target.
      for (const donor of donors) {
        if (donor.nextVisit && donor.nextVisit <= day && !donor.pending && donor.joinDay <= day && random.next() < 0.3) {
          at(random.between(7 * 60, 21 * 60), () => book(donor, day));
        }
      }
      if (dayIndex >= 7) {
        const shelves = await stock();
        for (const group of BLOOD_GROUPS) {
          // What is booked, and what is collected and in testing, will be on the shelf soon.
          const booked =
            donors.reduce((sum, donor) => sum + (donor.group === group && donor.pending ? donor.pending.units : 0), 0) +
            inTesting.reduce((sum, testing) => sum + (testing.donor.group === group ? testing.units : 0), 0);
          const shortBy = stockTarget(group, dayIndex) - shelves[group] - booked;
          if (shortBy <= 0) continue;
          const callable = random.shuffle(
            donors.filter(
              (donor) =>
                donor.group === group &&
                donor.cadenceDays === null &&
                donor.joinDay < day &&
                !donor.pending &&
                !donor.permanentlyDeferred &&
                addDays(eligibleFrom(donor), donor.lastCollected ? donor.restDays : 0) <= addDays(day, 3),
            ),
          );
          for (const donor of callable.slice(0, Math.ceil(shortBy / 1.15))) {
            if (random.next() < CALL_RESPONSE_RATE) at(random.between(9 * 60, 21 * 60), () => book(donor, day));
          }
        }
      }

      // Hospitals' requests for each component, by the population's groups, through the patients of that group.
      if (dayIndex >= FIRST_REQUEST_DAY) {
        for (const component of Object.keys(COMPONENT_DEMAND) as RequestedComponent[]) {
          const choices = REQUEST_UNIT_CHOICES[component];
          const meanUnits = choices.reduce((sum, n) => sum + n, 0) / choices.length;
          for (let count = random.poisson((demandOn(dayIndex) * COMPONENT_DEMAND[component]) / meanUnits); count > 0; count -= 1) {
            const group = random.group();
            const candidates = patients.filter((patient) => patient.group === group && patient.joinDay < day);
            if (candidates.length) {
              const patient = random.pick(candidates);
              at(random.between(7 * 60, 20 * 60), () => submitRequest(patient, day, component));
            }
          }
        }
      }

      // Staff go through the waiting requests every hour and a half from 08:30 (the first sitting
      // also clears expired units); today's are left for the demo admin.
      if (!isToday) {
        for (let round = 0; round < 6; round += 1) {
          const minute = 8 * 60 + 30 + round * 90 + random.between(0, 30);
          at(minute, () => requestRound(day, dayIndex, minute, round === 0));
        }
      }
      // The evening before: a few bookings and requests the demo admin will find waiting.
      if (addDays(day, 1) === today) {
        // The first is due today, the others in the coming days.
        const waiting = donors.filter((donor) => donor.session && !donor.pending && !donor.permanentlyDeferred && eligibleFrom(donor) <= today).slice(0, 3);
        waiting.forEach((donor, position) => at(random.between(18 * 60, 20 * 60), () => book(donor, day, position === 0 ? today : undefined)));
        // Two requests wait too: red cells, and plasma.
        const evening: RequestedComponent[] = ['red_cells', 'plasma'];
        patients
          .filter((p) => p.session)
          .slice(0, evening.length)
          .forEach((patient, position) => at(random.between(18 * 60, 20 * 60), () => submitRequest(patient, day, evening[position] as RequestedComponent)));
      }

      events.sort((a, b) => a.minute - b.minute);
      for (const event of events) {
        moveClockTo(day, event.minute);
        if (current >= endsAt) break;
        await event.run();
      }
    }

    // Three years of messages were "sent" as they happened: the queue does not send them all again
    // the first time the server starts on this database (each stays in its person's in-app list),
    // and are forgotten as sent ones are (markJobsDone).
    await database.db
      .updateTable('jobs')
      .set({ done_at: sql<string>`created_at`, payload: SENT_PAYLOAD })
      .where('done_at', 'is', null)
      .execute();

    // The mark of a finished seed: a run that stopped half-way leaves the demo admin without it.
    // Stamped just before the moment it ran, as nothing of the demo comes after it.
    const finishedAt = new Date(endsAt.getTime() - 1).toISOString();
    await recordAudit(database.db, { actorId: null, actor: 'system', action: DEMO_SEEDED, entity: 'demo', entityId: null, at: finishedAt });

    const leaderboard = (await call({ method: 'GET', url: '/api/game/leaderboard?limit=10', headers: admin.headers })).json() as LeaderboardEntry[];
    const donationsByStatus = await database.db
      .selectFrom('donations')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .orderBy('status')
      .execute();
    const unitsByComponent = await database.db
      .selectFrom('blood_units')
      .select(['component', 'status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['component', 'status'])
      .execute();
    const unitsOnHold = await database.db
      .selectFrom('blood_units')
      .select(['hold_reason', (eb) => eb.fn.countAll<number>().as('count')])
      .where('status', '=', 'quarantined')
      .groupBy('hold_reason')
      .orderBy('hold_reason')
      .execute();
    return {
      donationsByStatus: Object.fromEntries(donationsByStatus.map((row) => [row.status, Number(row.count)])),
      unitsOnHold: Object.fromEntries(unitsOnHold.map((row) => [String(row.hold_reason), Number(row.count)])),
      unitsByComponent: Object.fromEntries(
        COMPONENTS.map((component) => [
          component,
          Object.fromEntries(unitsByComponent.filter((row) => row.component === component).map((row) => [row.status, Number(row.count)])),
        ]),
      ) as Record<Component, Record<string, number>>,
      admin: DEMO_ADMIN_USERNAME,
      donor: nameOf(0).username,
      // A patient of the commonest group with years of requests: a typical history to look at.
      patient: nameOf(DONOR_COUNT + (patients.find((patient) => patient.index < 10 && patient.group === 'O+') ?? (patients[0] as DemoPatient)).index).username,
      stockByGroup: await stock(),
      leaderboard,
    };
  } finally {
    await app.close();
  }
}

const DEMO_SEEDED = 'demo.seeded';
const HALF_SEEDED =
  'A demo seed stopped half-way on this database. Delete its data folder (DATA_DIR, ./data by default; on PostgreSQL, drop and create the database), then run npm run seed:demo again with the server stopped.';

/**
 * Whether the demo seed finished on this database: its mark, or for a database seeded before the
 * mark existed, three years of history with nothing left to send (the seed's last steps).
 */
async function demoSeedFinished(database: DatabaseHandle): Promise<boolean> {
  const mark = await database.db.selectFrom('audit_log').select('id').where('action', '=', DEMO_SEEDED).executeTakeFirst();
  if (mark) return true;
  const [donations, unsent] = await Promise.all([
    database.db.selectFrom('donations').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    database.db.selectFrom('jobs').select('id').where('done_at', 'is', null).where('failed_at', 'is', null).executeTakeFirst(),
  ]);
  return Number(donations.count) > 500 && !unsent;
}

async function main() {
  const config = loadConfig();
  const running = await serverAnswering(config);
  if (running) {
    console.error(
      `A server is running ${running}: stop it first (Ctrl+C), run npm run seed:demo, then start it again (npm start).`,
    );
    process.exitCode = 1;
    return;
  }
  const database = openDatabaseFromConfig(config);
  try {
    await migrateToLatest(database.db);
    // The install's own admin, as the server's first start would create it.
    await ensureInitialAdmin(database.db, config);
    const result = await seedDemoData(database, config);
    if (!result) {
      console.log(`Demo data is already in this database (user ${DEMO_ADMIN_USERNAME} exists). Nothing to do.`);
      return;
    }
    console.log(`Demo data ready. Available units by group: ${BLOOD_GROUPS.map((group) => `${group} ${result.stockByGroup[group]}`).join(', ')}.`);
    console.log(`Leaderboard: ${result.leaderboard.map((entry) => `${entry.name} ${entry.points}`).join(', ')}.`);
    const count = (counts: Record<string, number>) => Object.entries(counts).map(([key, n]) => `${key} ${n}`).join(', ') || 'none';
    console.log(`Donations: ${count(result.donationsByStatus)}. Units on hold: ${count(result.unitsOnHold)}.`);
    console.log(`Units by component: ${COMPONENTS.map((component) => `${component} (${count(result.unitsByComponent[component])})`).join('; ')}.`);
    console.log(`Sign in as admin "${result.admin}", donor "${result.donor}" or patient "${result.patient}", password "${DEMO_PASSWORD}".`);
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main().catch((error: unknown) => {
    console.error('Seeding failed:', error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
