import type { InjectOptions } from 'fastify';
import {
  BLOOD_GROUPS,
  CAN_RECEIVE_FROM,
  POPULATION_SHARES,
  type BloodGroup,
} from '@bloodbank/shared/blood-groups';
import {
  DONATION_INTERVAL_DAYS,
  DONOR_HEALTH_OPTIONS,
  EXPIRING_SOON_DAYS,
  PATIENT_DISEASE_OPTIONS,
} from '@bloodbank/shared/constants';
import { PAGE_SIZE, type BloodUnit, type Paged } from '@bloodbank/shared/admin';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import type { LeaderboardEntry } from '@bloodbank/shared/game';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { migrateToLatest, type DatabaseHandle } from '../db/database';
import { openDatabaseFromConfig } from '../db/open-from-config';
import { createClock } from '../lib/clock';
import { createAdmin, ensureInitialAdmin } from '../modules/users/admin-accounts';
import { instantAtBankTime } from './bank-time';

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
 * bank calls them because their group runs short. Donors book a few days ahead and are collected
 * on their booked day during opening hours; staff go through hospital requests every hour and a
 * half in working hours (units about to expire first), clear expired units every morning, and ask
 * a partner bank for units only when a patient is waiting and nothing compatible is left.
 * Nothing happens after the moment the seed runs; today's bookings and requests are left pending
 * for the demo admin. Every demo account's password is DEMO_PASSWORD.
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
/** The bank opens its doors to requests once its first donations are on the shelves. */
const FIRST_REQUEST_DAY = 14;
/** Days of demand the bank aims to hold per group (units keep 42 days, so few expire). */
const STOCK_TARGET_DAYS = 20;
/** Of the donors the bank calls, the share who book within the day. */
const CALL_RESPONSE_RATE = 0.6;
/** At collection, the share turned away (haemoglobin below the threshold on the day). */
const DEFERRAL_AT_COLLECTION_RATE = 0.05;
const REQUEST_UNIT_CHOICES = [1, 1, 1, 2, 2, 2, 3] as const;

const FIRST_NAMES = ['Asha', 'Ravi', 'Meera', 'Kiran', 'Farah', 'Arjun', 'Priya', 'Vikram', 'Neha', 'Sanjay', 'Lakshmi', 'Imran', 'Divya', 'Rahul', 'Anita', 'Joseph', 'Sunita', 'Aditya', 'Kavya', 'Manoj', 'Rekha', 'Deepak', 'Pooja', 'Nikhil', 'Sara', 'Tarun', 'Uma', 'Yusuf', 'Zoya', 'Gopal', 'Isha', 'Harish'];
const LAST_NAMES = ['Kulkarni', 'Sharma', 'Iyer', 'Reddy', 'Khan', 'Patel', 'Nair', 'Singh', 'Das', 'Menon', 'Joshi', 'Fernandes', 'Rao', 'Gupta', 'Bose', 'Pillai'];
const HOSPITALS = ['City General Hospital, Ward 4', 'St. Mary Medical Centre, ICU', "Riverside Children's Hospital", 'Lakeview Cancer Institute', 'North Trauma Centre'];
const DOCTORS = ['Dr. Mehta', 'Dr. Fernandes', 'Dr. Rao', 'Dr. Banerjee', 'Dr. Thomas'];
const REASONS = ['Scheduled surgery', 'Road accident, heavy blood loss', 'Chemotherapy support', 'Anaemia treatment', 'Delivery complications', 'Thalassaemia transfusion'];

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
  session?: Session;
  pending?: { id: number; date: string; units: number };
}

interface DemoPatient { index: number; group: BloodGroup; joinDay: string; session?: Session }

interface PendingRequest { id: number; bloodgroup: BloodGroup; units: number }

export interface DemoSeedResult {
  admin: string;
  donor: string;
  patient: string;
  stockByGroup: Record<BloodGroup, number>;
  leaderboard: LeaderboardEntry[];
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
  if (existingDemo) return null;

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

    // ---- the people
    const dayAt = (offset: number) => addDays(firstDay, offset);
    const donors: DemoDonor[] = groupsByPopulationShare(DONOR_COUNT, random).map((group, index) => {
      if (index < FOUNDING_DONORS) {
        // The founders join two months apart and give every three to four months: the top of the
        // leaderboard is people with different histories, not a block of equal scores.
        const joinDay = dayAt(index * 60 + random.between(0, 10));
        const cadenceDays = DONATION_INTERVAL_DAYS + 1 + index * 4 + random.between(0, 4);
        return { index, group, joinDay, cadenceDays, nextVisit: joinDay, lastCollected: null, restDays: 0 };
      }
      // The others join as the bank grows (a third in its first months) and come when the bank
      // calls them, once or twice a year: each rests a while of their own beyond the 90 days.
      const joinDay = dayAt(random.next() < 0.35 ? random.between(7, 120) : random.between(120, HISTORY_DAYS - 10));
      return { index, group, joinDay, cadenceDays: null, nextVisit: null, lastCollected: null, restDays: random.between(60, 200) };
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
    const stock = async () => {
      const response = await call({ method: 'GET', url: '/api/stock', headers: admin.headers });
      return Object.fromEntries(
        (response.json() as { bloodgroup: BloodGroup; units: number }[]).map((row) => [row.bloodgroup, row.units]),
      ) as Record<BloodGroup, number>;
    };
    const demandOn = (dayIndex: number) =>
      DEMAND_UNITS_PER_DAY.first + ((DEMAND_UNITS_PER_DAY.last - DEMAND_UNITS_PER_DAY.first) * dayIndex) / HISTORY_DAYS;
    // No floor: a group the hospitals need less than a unit of in that time is not held, so rare
    // units are not collected only to expire; its patients get a compatible group or a partner's units.
    const stockTarget = (group: BloodGroup, dayIndex: number) =>
      Math.round(POPULATION_SHARES[group] * demandOn(dayIndex) * STOCK_TARGET_DAYS);
    const eligibleFrom = (donor: DemoDonor) =>
      donor.lastCollected ? addDays(donor.lastCollected, DONATION_INTERVAL_DAYS) : donor.joinDay;
    const pendingRequests: PendingRequest[] = [];

    /** An appointment one to five days ahead, and not before the donor may give again. */
    const book = async (donor: DemoDonor, day: string) => {
      if (!donor.session || donor.pending) return;
      const date = [addDays(day, random.between(1, 5)), eligibleFrom(donor)].sort().at(-1) as string;
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
        },
      });
      donor.pending = { id: (response.json() as { id: number }).id, date, units };
      // As the web app does right after booking.
      await call({ method: 'POST', url: '/api/game/donation-complete', headers: donor.session.headers });
    };

    /** The donor comes in on the booked day; staff collect, or turn them away on the day. */
    const collect = async (donor: DemoDonor, day: string) => {
      if (!donor.pending) return;
      const { id, date } = donor.pending;
      donor.pending = undefined;
      if (random.next() < DEFERRAL_AT_COLLECTION_RATE) {
        await call({ method: 'POST', url: `/api/admin/donations/${id}/reject`, headers: admin.headers, payload: { reason: 'Haemoglobin below the donation threshold on the day' } });
        if (donor.cadenceDays) donor.nextVisit = addDays(day, random.between(30, 60));
        return;
      }
      await call({ method: 'POST', url: `/api/admin/donations/${id}/approve`, headers: admin.headers });
      donor.lastCollected = date;
      if (donor.cadenceDays) donor.nextVisit = addDays(date, donor.cadenceDays);
    };

    const submitRequest = async (patient: DemoPatient, day: string) => {
      if (!patient.session) return;
      const units = random.pick(REQUEST_UNIT_CHOICES);
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
          reason: random.pick(REASONS),
        },
      });
      pendingRequests.push({ id: (response.json() as { id: number }).id, bloodgroup: patient.group, units });
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
      const shelves = await stock();
      // Listed first-expiring-first: the first available unseen unit of a group is its earliest.
      const earliestExpiry = new Map<BloodGroup, string>();
      const units = await call({ method: 'GET', url: `/api/admin/units?status=available&pageSize=${PAGE_SIZE.max}`, headers: admin.headers });
      for (const unit of (units.json() as Paged<BloodUnit>).items) {
        if (unit.expires_on >= day && !earliestExpiry.has(unit.bloodgroup)) earliestExpiry.set(unit.bloodgroup, unit.expires_on);
      }
      for (const request of pendingRequests.splice(0)) {
        nextStep();
        // Units about to expire first, whatever compatible group they are (staff see them on the
        // dashboard); else the patient's own group; else the compatible group with most to spare.
        const compatible = CAN_RECEIVE_FROM[request.bloodgroup].filter((group) => shelves[group] >= request.units);
        const expiringSoon = compatible
          .filter((group) => (earliestExpiry.get(group) ?? '9999') <= addDays(day, EXPIRING_SOON_DAYS))
          .sort((a, b) => ((earliestExpiry.get(a) as string) < (earliestExpiry.get(b) as string) ? -1 : 1))[0];
        const from =
          expiringSoon ??
          (compatible.includes(request.bloodgroup)
            ? request.bloodgroup
            : compatible.sort((a, b) => shelves[b] / (stockTarget(b, dayIndex) + 1) - shelves[a] / (stockTarget(a, dayIndex) + 1))[0]);
        if (from) {
          await call({ method: 'POST', url: `/api/admin/requests/${request.id}/approve`, headers: admin.headers, payload: { bloodgroup: from } });
          shelves[from] -= request.units;
        } else if (random.next() < 0.6) {
          // A partner bank sends what the patient needs, collected a few days ago.
          await call({ method: 'POST', url: '/api/admin/units', headers: admin.headers, payload: { bloodgroup: request.bloodgroup, count: request.units, collected_on: addDays(day, -random.between(1, 5)) } });
          nextStep();
          await call({ method: 'POST', url: `/api/admin/requests/${request.id}/approve`, headers: admin.headers, payload: { bloodgroup: request.bloodgroup } });
        } else {
          await call({ method: 'POST', url: `/api/admin/requests/${request.id}/reject`, headers: admin.headers, payload: { reason: 'No compatible blood in stock; please contact the blood bank' } });
        }
      }
    };

    // ---- the days
    for (let dayIndex = 0; dayIndex <= HISTORY_DAYS; dayIndex += 1) {
      const day = dayAt(dayIndex);
      const isToday = day === today;
      const events: { minute: number; run: () => Promise<void> }[] = [];
      const at = (minute: number, run: () => Promise<void>) => events.push({ minute, run });

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

      // Donors booked for today come in during opening hours; today's are left for the demo admin.
      if (!isToday) {
        for (const donor of donors) {
          if (donor.pending && donor.pending.date <= day) at(random.between(8 * 60 + 30, 17 * 60 + 30), () => collect(donor, day));
        }
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
          const booked = donors.reduce((sum, donor) => sum + (donor.group === group && donor.pending ? donor.pending.units : 0), 0);
          const shortBy = stockTarget(group, dayIndex) - shelves[group] - booked;
          if (shortBy <= 0) continue;
          const callable = random.shuffle(
            donors.filter(
              (donor) =>
                donor.group === group &&
                donor.cadenceDays === null &&
                donor.joinDay < day &&
                !donor.pending &&
                addDays(eligibleFrom(donor), donor.lastCollected ? donor.restDays : 0) <= addDays(day, 3),
            ),
          );
          for (const donor of callable.slice(0, Math.ceil(shortBy / 1.15))) {
            if (random.next() < CALL_RESPONSE_RATE) at(random.between(9 * 60, 21 * 60), () => book(donor, day));
          }
        }
      }

      // Hospitals' requests, by the population's groups, through the patients of that group.
      if (dayIndex >= FIRST_REQUEST_DAY) {
        const meanUnits = REQUEST_UNIT_CHOICES.reduce((sum, n) => sum + n, 0) / REQUEST_UNIT_CHOICES.length;
        for (let count = random.poisson(demandOn(dayIndex) / meanUnits); count > 0; count -= 1) {
          const group = random.group();
          const candidates = patients.filter((patient) => patient.group === group && patient.joinDay < day);
          if (candidates.length) {
            const patient = random.pick(candidates);
            at(random.between(7 * 60, 20 * 60), () => submitRequest(patient, day));
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
        const waiting = donors.filter((donor) => donor.session && !donor.pending && eligibleFrom(donor) <= today).slice(0, 3);
        for (const donor of waiting) at(random.between(18 * 60, 20 * 60), () => book(donor, day));
        for (const patient of patients.filter((p) => p.session).slice(0, 2)) at(random.between(18 * 60, 20 * 60), () => submitRequest(patient, day));
      }

      events.sort((a, b) => a.minute - b.minute);
      for (const event of events) {
        moveClockTo(day, event.minute);
        if (current >= endsAt) break;
        await event.run();
      }
    }

    const leaderboard = (await call({ method: 'GET', url: '/api/game/leaderboard?limit=10', headers: admin.headers })).json() as LeaderboardEntry[];
    return {
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

async function main() {
  const config = loadConfig();
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
