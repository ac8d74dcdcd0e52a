import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { BLOOD_GROUPS, POPULATION_SHARES, type BloodGroup } from '@bloodbank/shared/blood-groups';
import { canGiveComponent, COMPONENTS, type Component } from '@bloodbank/shared/components';
import { COLLECTED_DONATION_STATUSES, type DonorSummary } from '@bloodbank/shared/donation';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { DEFAULT_SCREENING_THRESHOLDS } from '@bloodbank/shared/donation-lifecycle';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../db/database';
import { createClock } from '../lib/clock';
import { createAdmin } from '../modules/users/admin-accounts';
import { onTestDatabase, testDatabaseUrl } from '../../test/test-app';
import { bankMinuteOfDay } from './bank-time';
import { DEMO_ADMIN_USERNAME, DEMO_PASSWORD, seedDemoData, type DemoSeedResult } from './seed-demo';

/**
 * The demo data looks like a blood bank's (issue 24): the seed is run once, on a fresh database,
 * in a zone that is not UTC, and the result is checked the way a person looking at the screens
 * would judge it. Slow by nature (three years played through the API): one run for every check.
 */
const NOW = new Date('2026-11-25T04:10:00.000Z'); // 09:40 in Kolkata: the working day has begun
const TIMEZONE = 'Asia/Kolkata';
const WORKING_HOURS = { from: 8 * 60, to: 18 * 60 };

let database: DatabaseHandle | undefined;
let seeded: DemoSeedResult;
let cleanUp: () => Promise<void>;
let config: Config;
let openHandle: () => DatabaseHandle;
const TODAY = todayIn(TIMEZONE, NOW);

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-demo-seed-'));
  config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', TIMEZONE, JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing' });
  let dropSchema = async () => {};
  let open: () => DatabaseHandle;
  const schema = testDatabaseUrl ? `test_${crypto.randomBytes(6).toString('hex')}` : undefined;
  if (testDatabaseUrl) {
    await onTestDatabase(`create schema ${schema}`);
    open = () => openDatabase({ databaseUrl: testDatabaseUrl as string, pgSchema: schema, poolSize: 5 });
    dropSchema = () => onTestDatabase(`drop schema if exists ${schema} cascade`);
  } else {
    open = () => openDatabase({ sqliteFile: path.join(dataDir, 'bloodbank.db') });
  }
  cleanUp = async () => {
    await database?.close();
    await dropSchema();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // The seed's app closes the database it was given when it is done, as the server's does.
  const seeding = open();
  await migrateToLatest(seeding.db, schema ? { pgSchema: schema } : {});
  const result = await seedDemoData(seeding, config, { now: NOW });
  if (!result) throw new Error('a fresh database already had demo data');
  seeded = result;
  database = open();
  openHandle = open;
}, 600_000);
afterAll(() => cleanUp?.());

const db = () => (database as DatabaseHandle).db;
const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

describe('npm run seed:demo', () => {
  it('draws donors from the population: each group within 2 points of its share', async () => {
    const rows = await db()
      .selectFrom('users')
      .select(['bloodgroup', (eb) => eb.fn.countAll<number>().as('count')])
      .where('role', '=', 'DONOR')
      .groupBy('bloodgroup')
      .execute();
    const total = rows.reduce((sum, row) => sum + Number(row.count), 0);
    expect(total).toBeGreaterThan(200);
    for (const group of BLOOD_GROUPS) {
      const count = Number(rows.find((row) => row.bloodgroup === group)?.count ?? 0);
      expect(Math.abs(share(count, total) - POPULATION_SHARES[group]), group).toBeLessThanOrEqual(0.02);
    }
  });

  it('holds red-cell stock the way the population is made: common groups most, rare groups least', () => {
    // stockByGroup is GET /api/stock's `units`: red cells plus whole blood, the units of blood.
    const stock = seeded.stockByGroup;
    const byShare = [...BLOOD_GROUPS].sort((a, b) => POPULATION_SHARES[b] - POPULATION_SHARES[a]);
    const [commonest, secondCommonest] = byShare as [BloodGroup, BloodGroup];
    for (const rare of byShare.slice(3)) {
      expect(stock[commonest], `${commonest} against ${rare}`).toBeGreaterThan(stock[rare]);
      expect(stock[secondCommonest], `${secondCommonest} against ${rare}`).toBeGreaterThan(stock[rare]);
    }
    // Spearman's rank correlation between population share and units held.
    const rank = (values: number[]) => values.map((value) => values.filter((other) => other > value).length + (values.filter((other) => other === value).length - 1) / 2);
    const shareRanks = rank(BLOOD_GROUPS.map((group) => POPULATION_SHARES[group]));
    const stockRanks = rank(BLOOD_GROUPS.map((group) => stock[group]));
    const n = BLOOD_GROUPS.length;
    const squared = shareRanks.reduce((sum, value, index) => sum + (value - (stockRanks[index] as number)) ** 2, 0);
    expect(1 - (6 * squared) / (n * (n * n - 1))).toBeGreaterThanOrEqual(0.7);
  });

  it('fills the shelves from donations: at least 80% of the available units', async () => {
    const today = todayIn(TIMEZONE, NOW);
    const rows = await db()
      .selectFrom('blood_units')
      .select(['source', (eb) => eb.fn.countAll<number>().as('count')])
      .where('status', '=', 'available')
      .where('expires_on', '>=', today)
      .groupBy('source')
      .execute();
    const donated = Number(rows.find((row) => row.source === 'donation')?.count ?? 0);
    const total = rows.reduce((sum, row) => sum + Number(row.count), 0);
    expect(total).toBeGreaterThan(15);
    expect(share(donated, total)).toBeGreaterThanOrEqual(0.8);
  });

  it('lets few units expire: at most 8% of red cells and whole blood, 5% of plasma; platelets (5 days, 3 in testing) at most half', async () => {
    // Every bag the bank held, but not the whole blood separated into components (those are counted as components).
    const units = await db().selectFrom('blood_units').select(['component', 'discard_reason']).where('status', '!=', 'processed').execute();
    expect(units.length).toBeGreaterThan(1000);
    const expiredShare = (components: readonly Component[]) => {
      const of = units.filter((unit) => components.includes(unit.component));
      expect(of.length, components.join()).toBeGreaterThan(100);
      return share(of.filter((unit) => unit.discard_reason === 'Expired').length, of.length);
    };
    expect(expiredShare(['red_cells', 'whole_blood'])).toBeLessThanOrEqual(0.08);
    expect(expiredShare(['plasma'])).toBeLessThanOrEqual(0.05);
    expect(expiredShare(['platelets'])).toBeLessThanOrEqual(0.5);
  });

  it('has every component in stock today', async () => {
    const rows = await db()
      .selectFrom('blood_units')
      .select(['component', (eb) => eb.fn.countAll<number>().as('count')])
      .where('status', '=', 'available')
      .where('expires_on', '>=', TODAY)
      .groupBy('component')
      .execute();
    for (const component of COMPONENTS) {
      expect(Number(rows.find((row) => row.component === component)?.count ?? 0), component).toBeGreaterThan(0);
    }
    for (const component of COMPONENTS) expect(seeded.unitsByComponent[component].available ?? 0, component).toBeGreaterThan(0);
  });

  it('separates most collections on their day into red cells and plasma, some with platelets, and keeps some whole', async () => {
    const bags = await db()
      .selectFrom('blood_units')
      .selectAll()
      .where('component', '=', 'whole_blood')
      .where('source', '=', 'donation')
      .execute();
    const processed = bags.filter((unit) => unit.status === 'processed');
    expect(share(processed.length, bags.length)).toBeGreaterThan(0.6);
    expect(bags.length - processed.length).toBeGreaterThan(20);
    const children = await db().selectFrom('blood_units').selectAll().where('parent_unit_id', 'is not', null).execute();
    const byParent = new Map<number, typeof children>();
    for (const child of children) byParent.set(child.parent_unit_id as number, [...(byParent.get(child.parent_unit_id as number) ?? []), child]);
    expect([...byParent.keys()].sort((a, b) => a - b)).toEqual(processed.map((unit) => unit.id).sort((a, b) => a - b));
    let withPlatelets = 0;
    for (const parent of processed) {
      const made = byParent.get(parent.id) ?? [];
      const components = made.map((child) => child.component).sort();
      expect(components.filter((component) => component !== 'platelets'), `unit ${parent.id}`).toEqual(['plasma', 'red_cells']);
      if (components.includes('platelets')) withPlatelets += 1;
      for (const child of made) {
        expect(child).toMatchObject({ bloodgroup: parent.bloodgroup, donation_id: parent.donation_id, collected_on: parent.collected_on, source: 'donation' });
        expect(child.expires_on).toBe(addDays(parent.collected_on, { red_cells: 42, plasma: 365, platelets: 5, whole_blood: 35 }[child.component]));
      }
      // Processed on the day of collection, by the demo admin.
      const audit = await db().selectFrom('audit_log').select(['at', 'actor']).where('action', '=', 'unit.processed').where('entity_id', '=', parent.id).executeTakeFirstOrThrow();
      expect(audit.actor).toBe(DEMO_ADMIN_USERNAME);
      expect(todayIn(TIMEZONE, new Date(audit.at)), `unit ${parent.id}`).toBe(parent.collected_on);
    }
    expect(withPlatelets).toBeGreaterThan(50);
    expect(withPlatelets).toBeLessThan(processed.length);
  });

  it('has patients asking for plasma and platelets, given from groups compatible for that component', async () => {
    const requests = await db().selectFrom('blood_requests').select(['component', 'status', 'bloodgroup', 'issued_bloodgroup']).execute();
    for (const component of ['red_cells', 'plasma', 'platelets'] as const) {
      expect(requests.filter((request) => request.component === component && request.status === 'approved').length, component).toBeGreaterThan(50);
    }
    expect(share(requests.filter((request) => request.component === 'red_cells').length, requests.length)).toBeGreaterThan(0.4);
    const approved = requests.filter((request) => request.status === 'approved');
    for (const request of approved) {
      expect(canGiveComponent(request.component, request.issued_bloodgroup as BloodGroup, request.bloodgroup), JSON.stringify(request)).toBe(true);
    }
    // Plasma given across groups at least once (AB plasma to anyone, any plasma to an O patient).
    expect(approved.some((request) => request.component === 'plasma' && request.issued_bloodgroup !== request.bloodgroup)).toBe(true);
    // One plasma request waits for the demo admin.
    expect(requests.some((request) => request.component === 'plasma' && request.status === 'pending')).toBe(true);
  });

  it('has a leaderboard of different histories: at least 6 scores in the top 10, none shared by more than 3', () => {
    const points = seeded.leaderboard.map((entry) => entry.points);
    expect(points).toHaveLength(10);
    expect(new Set(points).size).toBeGreaterThanOrEqual(6);
    for (const score of points) expect(points.filter((other) => other === score).length, `${score} points`).toBeLessThanOrEqual(3);
  });

  it('stamps nothing after the moment it ran', async () => {
    const latest = async (table: 'donations' | 'blood_requests', column: 'decided_at' | 'created_at') =>
      (await db().selectFrom(table).select((eb) => eb.fn.max(column).as('latest')).executeTakeFirstOrThrow()).latest;
    const stamps = [
      await latest('donations', 'decided_at'),
      await latest('donations', 'created_at'),
      await latest('blood_requests', 'decided_at'),
      await latest('blood_requests', 'created_at'),
      (await db().selectFrom('audit_log').select((eb) => eb.fn.max('at').as('latest')).executeTakeFirstOrThrow()).latest,
      // Not the "account created" entries: registration stamps the real time, not the app's clock
      // (users/register-user.ts), so in this test, whose clock is set back, they are "later".
      (
        await db()
          .selectFrom('activities')
          .select((eb) => eb.fn.max('created_at').as('latest'))
          .where('kind', '!=', 'account_created')
          .executeTakeFirstOrThrow()
      ).latest,
    ];
    for (const stamp of stamps) expect(String(stamp) < NOW.toISOString(), String(stamp)).toBe(true);
  });

  it('decides in working hours, spread over the day, each donation on or after its booked date', async () => {
    // Staff's decisions: a cancellation is the donor's own, from home, before the day; a no-show is
    // marked by the daily work just after midnight.
    const donations = await db()
      .selectFrom('donations')
      .select(['decided_at', 'donation_date'])
      .where('decided_at', 'is not', null)
      .where('status', 'not in', ['cancelled', 'no_show'])
      .execute();
    const requests = await db().selectFrom('blood_requests').select('decided_at').where('status', 'in', ['approved', 'rejected']).execute();
    const decisions = [...donations, ...requests].map((row) => new Date(row.decided_at as string));
    expect(decisions.length).toBeGreaterThan(500);

    const minutes = decisions.map((instant) => bankMinuteOfDay(instant, TIMEZONE));
    expect(minutes.filter((minute) => minute < WORKING_HOURS.from || minute >= WORKING_HOURS.to)).toEqual([]);
    const perHour = new Map<number, number>();
    for (const minute of minutes) perHour.set(Math.floor(minute / 60), (perHour.get(Math.floor(minute / 60)) ?? 0) + 1);
    expect(perHour.size).toBeGreaterThanOrEqual(9);
    expect(Math.max(...perHour.values()) / decisions.length, JSON.stringify([...perHour])).toBeLessThanOrEqual(0.2);
    expect(new Set(minutes).size).toBeGreaterThan(300);

    for (const donation of donations) {
      expect(todayIn(TIMEZONE, new Date(donation.decided_at as string)) >= donation.donation_date, donation.donation_date).toBe(true);
    }
  });

  it('books at the sites: every booking names a site and a slot within capacity; missed ones are no-shows; today has a day list', async () => {
    const bookings = await db()
      .selectFrom('donations')
      .select(['site_id', 'slot', 'donation_date', 'status'])
      .where('status', 'not in', ['cancelled', 'rejected'])
      .execute();
    expect(bookings.filter((booking) => booking.site_id === null || booking.slot === null)).toEqual([]);
    const perPlace = new Map<string, number>();
    for (const booking of bookings) {
      const key = `${booking.site_id} ${booking.donation_date} ${booking.slot}`;
      perPlace.set(key, (perPlace.get(key) ?? 0) + 1);
    }
    const sites = await db().selectFrom('sites').select(['id', 'name', 'capacity']).orderBy('id').execute();
    expect(sites.map((site) => site.name)).toEqual(['Central Blood Bank', 'Town Hall Weekend Drive']);
    const capacity = new Map(sites.map((site) => [site.id, site.capacity]));
    for (const [key, count] of perPlace) expect(count, key).toBeLessThanOrEqual(capacity.get(Number(key.split(' ')[0]))!);
    // Both sites are used, the weekend drive on weekends only (the centre opens every day).
    const weekendDrive = bookings.filter((booking) => booking.site_id === sites[1]!.id);
    expect(weekendDrive.length).toBeGreaterThan(20);
    for (const booking of weekendDrive) expect([0, 6], booking.donation_date).toContain(new Date(`${booking.donation_date}T00:00:00Z`).getUTCDay());
    // The bookings nobody came for became no-shows; none is left pending on a day that has passed.
    expect(bookings.filter((booking) => booking.status === 'no_show').length).toBeGreaterThan(5);
    expect(bookings.filter((booking) => booking.status === 'pending' && booking.donation_date < TODAY)).toEqual([]);
    expect(bookings.filter((booking) => booking.status === 'pending' && booking.donation_date === TODAY).length).toBeGreaterThan(0);
  });

  it('does nothing when run again, and refuses a database where a seed stopped half-way, saying what to do', async () => {
    const again = openHandle();
    try {
      expect(await seedDemoData(again, config, { now: NOW })).toBeNull();
    } finally {
      await again.close();
    }

    // A seed that stopped half-way (beside a running server, say) left its admin and no mark.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-half-seed-'));
    const half = openDatabase({ sqliteFile: path.join(dataDir, 'bloodbank.db') });
    try {
      await migrateToLatest(half.db);
      await createAdmin(half.db, DEMO_ADMIN_USERNAME, DEMO_PASSWORD, NOW.toISOString());
      await expect(seedDemoData(half, config, { now: NOW })).rejects.toThrow(
        'A demo seed stopped half-way on this database. Delete its data folder',
      );
    } finally {
      await half.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('tells people as it goes, and leaves no old e-mail queued for the first start', async () => {
    const kinds = await db().selectFrom('notifications').select(['kind', (eb) => eb.fn.countAll<number>().as('count')]).groupBy('kind').execute();
    const count = (kind: string) => Number(kinds.find((row) => row.kind === kind)?.count ?? 0);
    for (const kind of ['booking_confirmed', 'collection_recorded', 'donation_released', 'unit_issued', 'request_approved', 'appointment_reminder']) {
      expect(count(kind), kind).toBeGreaterThan(10);
    }
    const queued = await db().selectFrom('jobs').select('id').where('done_at', 'is', null).execute();
    expect(queued).toEqual([]);
  });

  it("records the demo admin's actions in the audit log in working hours and in the order they happened", async () => {
    const entries = await db().selectFrom('audit_log').select(['id', 'at']).where('actor', '=', DEMO_ADMIN_USERNAME).orderBy('id').execute();
    expect(entries.length).toBeGreaterThan(500);
    for (const [index, entry] of entries.entries()) {
      const minute = bankMinuteOfDay(new Date(entry.at), TIMEZONE);
      expect(minute >= WORKING_HOURS.from && minute < WORKING_HOURS.to, entry.at).toBe(true);
      if (index > 0) expect(entry.at >= (entries[index - 1]?.at as string), entry.at).toBe(true);
    }
  });
});

/** The demo plays every state of a donation's lifecycle (PRODUCT.md 3.2, 3.4, 3.7; issue 20). */
describe('npm run seed:demo: the lifecycle of a donation', () => {
  const countBy = async <T extends string>(rows: Promise<{ key: T | null; count: number | string | bigint }[]>) =>
    Object.fromEntries((await rows).map((row) => [String(row.key), Number(row.count)])) as Record<string, number>;
  const donationsByStatus = () =>
    countBy(
      db()
        .selectFrom('donations')
        .select(['status as key', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy('status')
        .execute(),
    );

  it('has donations in every state, most of them released', async () => {
    const counts = await donationsByStatus();
    for (const status of ['pending', 'cancelled', 'rejected', 'deferred', 'collected', 'released', 'discarded', 'no_show']) {
      expect(counts[status] ?? 0, status).toBeGreaterThan(0);
    }
    expect(counts.approved ?? 0).toBe(0);
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    expect(share(counts.released ?? 0, total)).toBeGreaterThan(0.8);
    expect(counts.discarded).toBe(1);
    expect(seeded.donationsByStatus).toEqual(counts);
  });

  it('leaves bookings due today and upcoming ones pending, none in the past', async () => {
    const pending = await db().selectFrom('donations').select('donation_date').where('status', '=', 'pending').execute();
    expect(pending.filter((row) => row.donation_date === TODAY).length).toBeGreaterThan(0);
    expect(pending.filter((row) => row.donation_date > TODAY).length).toBeGreaterThan(0);
    expect(pending.filter((row) => row.donation_date < TODAY)).toEqual([]);
  });

  it('keeps the last collections in testing: their units (and the components made from them) quarantined, not stock', async () => {
    const collected = await db().selectFrom('donations').select(['id', 'units', 'collected_on']).where('status', '=', 'collected').execute();
    expect(collected.length).toBeGreaterThan(0);
    for (const donation of collected) expect(donation.collected_on! >= addDays(TODAY, -3), donation.collected_on!).toBe(true);
    const units = await db()
      .selectFrom('blood_units')
      .select(['donation_id', 'status', 'hold_reason', 'parent_unit_id'])
      .where('donation_id', 'in', collected.map((donation) => donation.id))
      .execute();
    // One whole-blood bag per unit collected; each either separated or in testing itself.
    expect(units.filter((unit) => unit.parent_unit_id === null).length).toBe(collected.reduce((sum, donation) => sum + donation.units, 0));
    for (const unit of units.filter((candidate) => candidate.status !== 'processed')) expect(unit).toMatchObject({ status: 'quarantined', hold_reason: 'testing' });
    const testing = await db().selectFrom('blood_units').select(['donation_id']).where('hold_reason', '=', 'testing').execute();
    for (const unit of testing) expect(collected.map((donation) => donation.id)).toContain(unit.donation_id);
    expect(testing.length).toBe(units.filter((unit) => unit.status !== 'processed').length);
    expect(seeded.unitsOnHold.testing).toBe(testing.length);
  });

  it('records a screening for every collected, released, discarded and deferred donation, and results for every tested one', async () => {
    const donations = await db()
      .selectFrom('donations')
      .leftJoin('donation_screenings as screening', 'screening.donation_id', 'donations.id')
      .leftJoin('donation_test_results as results', 'results.donation_id', 'donations.id')
      .select(['donations.id', 'donations.status', 'donations.collected_on', 'screening.passed', 'screening.haemoglobin_g_dl', 'results.hbv', 'results.hiv', 'results.hcv', 'results.syphilis'])
      .execute();
    for (const donation of donations) {
      const screened = ['deferred', ...COLLECTED_DONATION_STATUSES].includes(donation.status);
      expect(donation.passed === null, `${donation.id} ${donation.status}`).toBe(!screened);
      expect(donation.collected_on === null, `${donation.id} ${donation.status}`).toBe(!screened);
      if (screened) expect(Number(donation.passed), `${donation.id}`).toBe(donation.status === 'deferred' ? 0 : 1);
      if (donation.status === 'deferred') expect(Number(donation.haemoglobin_g_dl)).toBeLessThan(DEFAULT_SCREENING_THRESHOLDS.haemoglobin_min_g_dl);
      const tested = donation.status === 'released' || donation.status === 'discarded';
      expect(donation.hbv === null, `${donation.id} ${donation.status}`).toBe(!tested);
      if (donation.status === 'released') expect([donation.hiv, donation.hbv, donation.hcv, donation.syphilis]).toEqual(['negative', 'negative', 'negative', 'negative']);
    }
  });

  it('defers donors at screening, by hand and after the reactive test; some deferrals are active today', async () => {
    const deferrals = await db().selectFrom('deferrals').selectAll().execute();
    const active = deferrals.filter((row) => row.lifted_at === null && (row.type === 'permanent' || (row.until as string) > TODAY));
    expect(active.length).toBeGreaterThan(0);
    const screening = deferrals.filter((row) => row.source === 'screening');
    const deferredDonations = await db().selectFrom('donations').select(['id', 'collected_on']).where('status', '=', 'deferred').execute();
    expect(screening.map((row) => row.donation_id).sort()).toEqual(deferredDonations.map((row) => row.id).sort());
    for (const donation of deferredDonations) {
      const deferral = screening.find((row) => row.donation_id === donation.id);
      expect(deferral?.until).toBe(addDays(donation.collected_on as string, DEFAULT_SCREENING_THRESHOLDS.deferral_days));
    }
    const manual = deferrals.filter((row) => row.source === 'manual');
    expect(manual.some((row) => row.lifted_at === null && (row.until as string) > TODAY)).toBe(true);
    expect(manual.some((row) => row.lifted_at !== null && row.lift_reason)).toBe(true);
  });

  it('discards the one reactive donation, defers its donor for good and holds their units still in stock (lookback)', async () => {
    const [reactive] = await db()
      .selectFrom('donations')
      .innerJoin('donation_test_results as results', 'results.donation_id', 'donations.id')
      .select(['donations.id', 'donations.donor_id', 'donations.collected_on', 'results.hbv'])
      .where('donations.status', '=', 'discarded')
      .execute();
    expect(reactive?.hbv).toBe('reactive');
    const units = await db().selectFrom('blood_units').select(['status', 'discard_reason']).where('donation_id', '=', reactive!.id).where('status', '!=', 'processed').execute();
    expect(units.length).toBeGreaterThan(0);
    // The bags and the components separated from them; a separated bag stays `processed`.
    for (const unit of units) expect(unit).toEqual({ status: 'discarded', discard_reason: 'Reactive screening test' });
    const deferral = await db().selectFrom('deferrals').selectAll().where('donation_id', '=', reactive!.id).executeTakeFirstOrThrow();
    expect(deferral).toMatchObject({ source: 'test', type: 'permanent', until: null, lifted_at: null, donor_id: reactive!.donor_id });
    // Lookback: none of the donor's other units of the 12 months before is still usable stock.
    const others = await db()
      .selectFrom('blood_units')
      .innerJoin('donations', 'donations.id', 'blood_units.donation_id')
      .select(['blood_units.status', 'blood_units.hold_reason'])
      .where('donations.donor_id', '=', reactive!.donor_id)
      .where('donations.id', '!=', reactive!.id)
      .where('blood_units.collected_on', '>=', addDays(reactive!.collected_on as string, -365))
      .execute();
    for (const unit of others) expect(unit.status === 'available', JSON.stringify(unit)).toBe(false);
    // Every lookback hold in the bank belongs to a donor with a reactive result.
    const held = await db()
      .selectFrom('blood_units')
      .innerJoin('donations', 'donations.id', 'blood_units.donation_id')
      .select(['donations.donor_id', 'blood_units.status'])
      .where('blood_units.hold_reason', '=', 'lookback')
      .execute();
    for (const unit of held) expect(unit).toEqual({ donor_id: reactive!.donor_id, status: 'quarantined' });
  });

  // Red cells (42 days) and whole blood (35) of a donor who gives at most every 90 days are gone by a
  // reactive result; plasma keeps a year, so the donor's earlier plasma is still in the freezer.
  it("puts the reactive donor's earlier plasma still in stock on a lookback hold", async () => {
    const reactive = await db()
      .selectFrom('donations')
      .select(['id', 'donor_id', 'collected_on'])
      .where('status', '=', 'discarded')
      .executeTakeFirstOrThrow();
    const held = await db()
      .selectFrom('blood_units')
      .innerJoin('donations', 'donations.id', 'blood_units.donation_id')
      .select(['blood_units.id', 'blood_units.component', 'blood_units.status', 'blood_units.collected_on', 'donations.donor_id', 'donations.id as donation_id'])
      .where('blood_units.hold_reason', '=', 'lookback')
      .execute();
    expect(held.length).toBeGreaterThan(0);
    for (const unit of held) {
      expect(unit).toMatchObject({ component: 'plasma', status: 'quarantined', donor_id: reactive.donor_id });
      expect(unit.donation_id).not.toBe(reactive.id);
      expect(unit.collected_on >= addDays(reactive.collected_on as string, -365) && unit.collected_on < (reactive.collected_on as string), unit.collected_on).toBe(true);
    }
    expect(seeded.unitsOnHold.lookback).toBe(held.length);
    // The hold is the results' own doing, in the same audit entry.
    const audit = await db().selectFrom('audit_log').select('detail').where('action', '=', 'donation.discarded').where('entity_id', '=', reactive.id).executeTakeFirstOrThrow();
    const { after } = JSON.parse(audit.detail) as { after: { lookback_unit_ids: number[] } };
    expect(after.lookback_unit_ids.sort((a, b) => a - b)).toEqual(held.map((unit) => unit.id).sort((a, b) => a - b));
  });

  it('credits Blood Hero at collection only, and most rewards have been seen', async () => {
    const rewards = await db()
      .selectFrom('game_rewards')
      .innerJoin('donations', 'donations.id', 'game_rewards.donation_id')
      .select(['donations.status', 'game_rewards.seen_at'])
      .execute();
    for (const reward of rewards) expect(COLLECTED_DONATION_STATUSES as readonly string[]).toContain(reward.status);
    const counts = await donationsByStatus();
    expect(rewards.length).toBe((counts.collected ?? 0) + (counts.released ?? 0) + (counts.discarded ?? 0));
    expect(share(rewards.filter((reward) => reward.seen_at !== null).length, rewards.length)).toBeGreaterThan(0.7);
  });

  describe('the demo logins', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      // An app of its own on a handle of its own (an app closes the database it was given).
      app = await buildApp(config, { database: openHandle(), clock: createClock(TIMEZONE, () => NOW), logger: false });
    });
    afterAll(() => app?.close());

    const signIn = async (username: string) => {
      const response = await app.inject({ method: 'POST', url: '/api/auth/token', payload: { username, password: DEMO_PASSWORD } });
      expect(response.statusCode, `${username}: ${response.body}`).toBe(200);
      return { authorization: `Bearer ${(response.json() as { access_token: string }).access_token}` };
    };

    it('signs in the demo admin, donor and patient the README names', async () => {
      expect([seeded.admin, seeded.donor, seeded.patient]).toEqual([DEMO_ADMIN_USERNAME, 'asha.kulkarni', 'sara.sharma']);
      const admin = await signIn(seeded.admin);
      expect((await app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: admin })).statusCode).toBe(200);
      const patient = await signIn(seeded.patient);
      expect((await app.inject({ method: 'GET', url: '/api/patient/summary', headers: patient })).statusCode).toBe(200);
    });

    it("shows asha a donor's dashboard worth a screenshot: donations given, points, no reward waiting unseen", async () => {
      const asha = await signIn(seeded.donor);
      const summary = (await app.inject({ method: 'GET', url: '/api/donor/summary', headers: asha })).json() as DonorSummary;
      expect(summary.approved).toBeGreaterThanOrEqual(5);
      expect(summary.deferred).toBeNull();
      expect(summary.latest_donation).not.toBeNull();
      const state = await app.inject({ method: 'GET', url: '/api/game/state', headers: asha });
      expect(state.statusCode).toBe(200);
      expect((state.json() as { profile: { points: number } }).profile.points).toBeGreaterThan(1000);
      // Her rewards were seen when she opened the app: no Achievement Unlocked modal on the screenshots.
      expect((await app.inject({ method: 'POST', url: '/api/game/donation-complete', headers: asha })).statusCode).toBe(409);
    });
  });
});
