import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOOD_GROUPS, POPULATION_SHARES, type BloodGroup } from '@bloodbank/shared/blood-groups';
import { todayIn } from '@bloodbank/shared/dates';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../db/database';
import { testDatabaseUrl } from '../../test/test-app';
import { bankMinuteOfDay } from './bank-time';
import { DEMO_ADMIN_USERNAME, seedDemoData, type DemoSeedResult } from './seed-demo';

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

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-demo-seed-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', TIMEZONE, JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing' });
  let dropSchema = async () => {};
  let open: () => DatabaseHandle;
  const schema = testDatabaseUrl ? `test_${crypto.randomBytes(6).toString('hex')}` : undefined;
  if (testDatabaseUrl) {
    const client = new pg.Client({ connectionString: testDatabaseUrl });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    open = () => openDatabase({ databaseUrl: testDatabaseUrl as string, pgSchema: schema, poolSize: 5 });
    dropSchema = async () => {
      const admin = new pg.Client({ connectionString: testDatabaseUrl });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    };
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

  it('holds stock the way the population is made: common groups most, rare groups least', () => {
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

  it('lets few units expire: expired discards are at most 8% of the units ever received', async () => {
    const units = await db().selectFrom('blood_units').select(['discard_reason']).execute();
    const expired = units.filter((unit) => unit.discard_reason === 'Expired').length;
    expect(units.length).toBeGreaterThan(500);
    expect(share(expired, units.length)).toBeLessThanOrEqual(0.08);
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
    const donations = await db()
      .selectFrom('donations')
      .select(['decided_at', 'donation_date'])
      .where('decided_at', 'is not', null)
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
