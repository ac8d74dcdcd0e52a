import type { InjectOptions } from 'fastify';
import { BLOOD_GROUPS, CAN_RECEIVE_FROM, type BloodGroup } from '@bloodbank/shared/blood-groups';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { DONOR_HEALTH_OPTIONS, PATIENT_DISEASE_OPTIONS } from '@bloodbank/shared/constants';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { migrateToLatest } from '../db/database';
import { openDatabaseFromConfig } from '../db/open-from-config';
import { createClock } from '../lib/clock';
import { createAdmin, ensureInitialAdmin } from '../modules/users/admin-accounts';

/**
 * npm run seed:demo — a believable year of blood bank life, played through the real API with a
 * clock that walks forward from a year ago to today. Every rule (eligibility, FEFO issue, game
 * rewards, expiry) is applied by the product's own code, so the demo data is consistent by
 * construction. Demo accounts all use the password below.
 */
export const DEMO_PASSWORD = 'demo-password';
const DEMO_ADMIN = { username: 'demo_admin', password: DEMO_PASSWORD };

const FIRST_NAMES = ['Asha', 'Ravi', 'Meera', 'Kiran', 'Farah', 'Arjun', 'Priya', 'Vikram', 'Neha', 'Sanjay', 'Lakshmi', 'Imran', 'Divya', 'Rahul', 'Anita', 'Joseph', 'Sunita', 'Aditya', 'Kavya', 'Manoj', 'Rekha', 'Deepak', 'Pooja', 'Nikhil', 'Sara', 'Tarun', 'Uma', 'Yusuf', 'Zoya', 'Gopal', 'Isha', 'Harish'];
const LAST_NAMES = ['Kulkarni', 'Sharma', 'Iyer', 'Reddy', 'Khan', 'Patel', 'Nair', 'Singh', 'Das', 'Menon', 'Joshi', 'Fernandes', 'Rao', 'Gupta', 'Bose', 'Pillai'];
const HOSPITALS = ['City General Hospital, Ward 4', 'St. Mary Medical Centre, ICU', 'Riverside Children\'s Hospital', 'Lakeview Cancer Institute', 'North Trauma Centre'];
const DOCTORS = ['Dr. Mehta', 'Dr. Fernandes', 'Dr. Rao', 'Dr. Banerjee', 'Dr. Thomas'];
const REASONS = ['Scheduled surgery', 'Road accident, heavy blood loss', 'Chemotherapy support', 'Anaemia treatment', 'Delivery complications'];
const DONOR_COUNT = 24;
const PATIENT_COUNT = 10;
const DAYS_OF_HISTORY = 300;
/** Receipts come more often lately, so today's shelves hold a believable mix of groups. */
const UNIT_RECEIPT_WINDOW_DAYS = 40;

/** Deterministic pseudo-random numbers, so every demo database tells the same story. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}

interface Account { id: number; username: string; headers: { authorization: string }; bloodgroup: BloodGroup }

async function main() {
  const config = loadConfig();
  const database = openDatabaseFromConfig(config);
  await migrateToLatest(database.db);
  const existingDemo = await database.db.selectFrom('users').select('id').where('username_key', '=', DEMO_ADMIN.username).executeTakeFirst();
  if (existingDemo) {
    console.log('Demo data is already in this database (user demo_admin exists). Nothing to do.');
    await database.close();
    return;
  }
  await ensureInitialAdmin(database.db, config);

  const today = todayIn(config.timezone);
  let simulatedDay = addDays(today, -DAYS_OF_HISTORY);
  // Midday in the bank's zone is safely "that day" whatever the offset.
  const clock = createClock(config.timezone, () => new Date(`${simulatedDay}T12:00:00Z`));
  const app = await buildApp({ ...config, logLevel: 'warn', rateLimitMax: 1_000_000 }, { database, clock, logger: false });
  const random = randomSource(2026);

  const call = async (options: InjectOptions, expected: number[] = [200, 201]) => {
    const response = await app.inject(options);
    if (!expected.includes(response.statusCode)) {
      throw new Error(`${options.method} ${options.url} answered ${response.statusCode}: ${response.body}`);
    }
    return response;
  };
  const signIn = async (username: string, password: string) => {
    const response = await call({ method: 'POST', url: '/api/auth/token', payload: { username, password } });
    const body = response.json() as { access_token: string; user_id: number };
    return { id: body.user_id, headers: { authorization: `Bearer ${body.access_token}` } };
  };

  await createAdmin(database.db, DEMO_ADMIN.username, DEMO_ADMIN.password);
  const admin = await signIn(DEMO_ADMIN.username, DEMO_ADMIN.password);

  const register = async (kind: 'donor' | 'patient', index: number): Promise<Account> => {
    const first = FIRST_NAMES[(index * 7 + (kind === 'patient' ? 3 : 0)) % FIRST_NAMES.length] as string;
    const last = LAST_NAMES[(index * 5 + (kind === 'patient' ? 1 : 0)) % LAST_NAMES.length] as string;
    const username = `${first}.${last}${kind === 'patient' ? '.p' : ''}`.toLowerCase();
    // Group frequencies roughly as in the population: O+ and B+ common, AB- rare.
    const bloodgroup = random.pick(['O+', 'O+', 'O+', 'B+', 'B+', 'A+', 'A+', 'AB+', 'O-', 'A-', 'B-', 'AB-'] as const);
    const payload = {
      user_type: kind, username, password: DEMO_PASSWORD, first_name: first, last_name: last,
      email: `${username}@example.org`, bloodgroup, address: `${10 + index} Park Street, Pune`,
      mobile: `98${String(10_000_000 + index * 7919).slice(0, 8)}`,
      ...(kind === 'patient'
        ? { disease: random.pick(PATIENT_DISEASE_OPTIONS), age: 18 + Math.floor(random.next() * 60), doctorname: random.pick(DOCTORS) }
        : {}),
    };
    await call({ method: 'POST', url: '/api/auth/register', payload });
    const session = await signIn(username, DEMO_PASSWORD);
    return { ...session, username, bloodgroup };
  };

  const donors: Account[] = [];
  for (let index = 0; index < DONOR_COUNT; index += 1) donors.push(await register('donor', index));
  const patients: Account[] = [];
  for (let index = 0; index < PATIENT_COUNT; index += 1) patients.push(await register('patient', index));
  for (const donor of donors) await call({ method: 'POST', url: '/api/game/profiles', headers: donor.headers });

  const nextEligible = new Map<number, string>();
  const pendingDonations: { id: number; donor: Account }[] = [];
  const pendingRequests: { id: number; bloodgroup: BloodGroup; units: number }[] = [];

  const stockOf = async () => {
    const response = await call({ method: 'GET', url: '/api/stock', headers: admin.headers });
    return Object.fromEntries((response.json() as { bloodgroup: BloodGroup; units: number }[]).map((row) => [row.bloodgroup, row.units])) as Record<BloodGroup, number>;
  };

  for (; simulatedDay <= today; simulatedDay = addDays(simulatedDay, 1)) {
    const isLastWeek = simulatedDay > addDays(today, -7);

    // Donors who are eligible come in now and then (most donate two or three times a year).
    for (const donor of donors) {
      const eligibleFrom = nextEligible.get(donor.id) ?? simulatedDay;
      if (simulatedDay < eligibleFrom || random.next() > 0.02) continue;
      if (pendingDonations.some((pending) => pending.donor.id === donor.id)) continue;
      const response = await call({
        method: 'POST', url: '/api/donations', headers: donor.headers,
        payload: { unit: random.next() < 0.3 ? 2 : 1, date: simulatedDay, disease: random.next() < 0.9 ? 'None' : random.pick(DONOR_HEALTH_OPTIONS), confirmation: true },
      });
      const donationId = (response.json() as { id: number }).id;
      await call({ method: 'POST', url: '/api/game/donation-complete', headers: donor.headers });
      pendingDonations.push({ id: donationId, donor });
    }

    // Patients need blood from time to time.
    for (const patient of patients) {
      if (random.next() > 0.01) continue;
      const units = 1 + Math.floor(random.next() * 3);
      const response = await call({
        method: 'POST', url: '/api/requests', headers: patient.headers,
        payload: { bloodgroup: patient.bloodgroup, unit: units, date: addDays(simulatedDay, 2), doctorname: random.pick(DOCTORS), hospitaladdress: random.pick(HOSPITALS), reason: random.pick(REASONS) },
      });
      pendingRequests.push({ id: (response.json() as { id: number }).id, bloodgroup: patient.bloodgroup, units });
    }

    // Staff decide within a couple of days; the last week is left for the demo admin.
    if (isLastWeek) continue;
    for (const pending of pendingDonations.splice(0)) {
      if (random.next() < 0.1) {
        await call({ method: 'POST', url: `/api/admin/donations/${pending.id}/reject`, headers: admin.headers, payload: { reason: 'Haemoglobin below the donation threshold on the day' } });
      } else {
        await call({ method: 'POST', url: `/api/admin/donations/${pending.id}/approve`, headers: admin.headers });
        nextEligible.set(pending.donor.id, addDays(simulatedDay, 90 + Math.floor(random.next() * 60)));
      }
    }
    if (pendingRequests.length && random.next() < 0.5) {
      const stock = await stockOf();
      for (const request of pendingRequests.splice(0)) {
        const compatible = CAN_RECEIVE_FROM[request.bloodgroup].find((group) => stock[group] >= request.units);
        if (stock[request.bloodgroup] >= request.units || compatible) {
          const group = stock[request.bloodgroup] >= request.units ? request.bloodgroup : (compatible as BloodGroup);
          await call({ method: 'POST', url: `/api/admin/requests/${request.id}/approve`, headers: admin.headers, payload: { bloodgroup: group } });
          stock[group] -= request.units;
        } else {
          await call({ method: 'POST', url: `/api/admin/requests/${request.id}/reject`, headers: admin.headers, payload: { reason: 'No compatible blood in stock; please contact the blood bank' } });
        }
      }
    }
    // A partner bank sends units every few weeks, so shelves are never empty for long.
    const recent = simulatedDay > addDays(today, -UNIT_RECEIPT_WINDOW_DAYS);
    if (random.next() < (recent ? 0.25 : 0.06)) {
      await call({ method: 'POST', url: '/api/admin/units', headers: admin.headers, payload: { bloodgroup: random.pick(BLOOD_GROUPS), count: 2 + Math.floor(random.next() * 4), collected_on: simulatedDay } });
    }
  }
  // Leave the demo admin something to decide: a few donations and requests arriving today.
  simulatedDay = today;
  for (const donor of donors.filter((d) => (nextEligible.get(d.id) ?? today) <= today && !pendingDonations.some((p) => p.donor.id === d.id)).slice(0, 3)) {
    await call({ method: 'POST', url: '/api/donations', headers: donor.headers, payload: { unit: 1, date: today, disease: donor === donors[0] ? 'Diabetes' : 'None', confirmation: true } }, [201, 409, 422]);
  }
  for (const patient of patients.slice(0, 2)) {
    await call({ method: 'POST', url: '/api/requests', headers: patient.headers, payload: { bloodgroup: patient.bloodgroup, unit: 2, date: addDays(today, 1), doctorname: random.pick(DOCTORS), hospitaladdress: random.pick(HOSPITALS), reason: random.pick(REASONS) } });
  }

  // Expired units are cleared from the shelves, as staff would.
  await call({ method: 'POST', url: '/api/admin/units/discard', headers: admin.headers, payload: { expired: true } });

  const stats = (await call({ method: 'GET', url: '/api/stats' })).json();
  await app.close();
  console.log(`Demo data ready: ${JSON.stringify(stats)}.`);
  console.log(`Sign in as admin "${DEMO_ADMIN.username}", donor "${donors[0]?.username}" or patient "${patients[0]?.username}", password "${DEMO_PASSWORD}".`);
}

await main().catch((error: unknown) => {
  console.error('Seeding failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

