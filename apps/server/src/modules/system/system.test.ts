import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient } from '../../../test/factories';
import { clientKey } from '../../lib/client-key';
import { localRequestCounter } from '../../plugins/rate-limit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-03-10T12:00:00Z' });
});
afterAll(() => t.close());

describe('GET /api/health', () => {
  it('answers ok with the database reachable', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', db: 'ok' });
  });
});

describe('GET /api/public/contact', () => {
  it("answers the bank's phone, e-mail and time zone as configured, for anyone, cacheable for five minutes", async () => {
    const bank = await createTestApp({ env: { BANK_PHONE: '+44 20 7946 0018', BANK_EMAIL: 'donors@bank.example.org', TIMEZONE: 'Asia/Kolkata' } });
    try {
      const response = await bank.app.inject({ method: 'GET', url: '/api/public/contact' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ phone: '+44 20 7946 0018', email: 'donors@bank.example.org', time_zone: 'Asia/Kolkata' });
      expect(response.headers['cache-control']).toBe('public, max-age=300');
    } finally {
      await bank.close();
    }
  });
});

describe('GET /api/stats', () => {
  it('counts active donors and patients, usable units and approved donations from the database', async () => {
    const empty = await t.app.inject({ method: 'GET', url: '/api/stats' });
    expect(empty.json()).toEqual({ donors: 0, patients: 0, units: 0, donations: 0 });

    const donor = await createDonor(t);
    await createDonor(t);
    await createPatient(t);
    await createAdmin(t);
    const inactive = await createDonor(t);
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', inactive.id).execute();

    const at = '2026-03-01T00:00:00Z';
    const donation = await t.db
      .insertInto('donations')
      .values({ donor_id: donor.id, bloodgroup: 'O+', units: 2, donation_date: '2026-03-01', disease: 'None', last_donation: null, status: 'released', rejection_reason: null, decided_by: null, decided_at: at, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const unit = (expires_on: string, status: 'available' | 'discarded' = 'available') => ({
      bloodgroup: 'O+' as const, source: 'donation' as const, donation_id: donation.id, collected_on: '2026-03-01', expires_on, status,
      request_id: null, issued_at: null, discarded_at: null, discard_reason: null, created_at: at,
    });
    // Usable: expires today or later and available. Not usable: expired yesterday, or discarded.
    await t.db.insertInto('blood_units').values([unit('2026-03-10'), unit('2026-04-12'), unit('2026-03-09'), unit('2026-04-12', 'discarded')]).execute();

    const response = await t.app.inject({ method: 'GET', url: '/api/stats' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ donors: 2, patients: 1, units: 2, donations: 1 });
  });
});

describe('the schema', () => {
  it('seeds the five achievements of the catalogue', async () => {
    const rows = await t.db.selectFrom('achievements').select(['code', 'name', 'points_reward']).orderBy('id').execute();
    expect(rows).toEqual([
      { code: 'first_hero_badge', name: 'First Time Hero', points_reward: 100 },
      { code: 'regular_hero_badge', name: 'Regular Hero', points_reward: 300 },
      { code: 'super_hero_badge', name: 'Super Hero', points_reward: 500 },
      { code: 'master_badge', name: 'Blood Donation Master', points_reward: 1000 },
      { code: 'streak_badge', name: 'Consistent Donor', points_reward: 500 },
    ]);
  });

  it('refuses a second pending donation for one donor at the database level', async () => {
    const donor = await createDonor(t);
    const row = (created_at: string) => ({ donor_id: donor.id, bloodgroup: 'O+' as const, units: 1, donation_date: '2026-03-20', disease: 'None', last_donation: null, rejection_reason: null, decided_by: null, decided_at: null, created_at });
    await t.db.insertInto('donations').values(row('2026-03-10T00:00:00Z')).execute();
    await expect(t.db.insertInto('donations').values(row('2026-03-10T00:00:01Z')).execute()).rejects.toThrow();
  });

  it('refuses to reward one donation twice at the database level', async () => {
    const donor = await createDonor(t);
    const { id } = await t.db.insertInto('donations').values({ donor_id: donor.id, bloodgroup: 'O+', units: 1, donation_date: '2026-03-20', disease: 'None', last_donation: null, status: 'released', rejection_reason: null, decided_by: null, decided_at: null, created_at: 'x' }).returning('id').executeTakeFirstOrThrow();
    const reward = { donation_id: id, donor_id: donor.id, points: 100, rewarded_at: 'x' };
    await t.db.insertInto('game_rewards').values(reward).execute();
    await expect(t.db.insertInto('game_rewards').values(reward).execute()).rejects.toThrow();
  });

  it('keeps an issued unit tied to exactly one request', async () => {
    await expect(
      sql`insert into blood_units (bloodgroup, source, collected_on, expires_on, status, created_at) values ('A+', 'manual', '2026-03-01', '2026-04-12', 'issued', 'x')`.execute(t.db),
    ).rejects.toThrow();
  });
});

describe('the per-address request limit', () => {
  it('answers 429 with retry-after once RATE_LIMIT_MAX requests were made in the minute, and announces the allowance only then', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_MAX: '3' } });
    try {
      for (let index = 0; index < 3; index += 1) {
        const allowed = await limited.app.inject({ method: 'GET', url: '/api/health' });
        expect(allowed.statusCode).toBe(200);
        expect(allowed.headers['x-ratelimit-remaining']).toBeUndefined();
      }
      const refused = await limited.app.inject({ method: 'GET', url: '/api/health' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'rate_limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
      expect(refused.json().detail).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
    } finally {
      await limited.close();
    }
  });

  it('counts each address in its own minute, from its first request, and forgets the minutes that ended', () => {
    let nowMs = 1_000_000;
    const counter = localRequestCounter(2, 60_000, () => nowMs);
    expect([counter.take('a'), counter.take('a')]).toEqual([0, 0]);
    nowMs += 20_000;
    expect(counter.take('b')).toBe(0);
    expect(counter.take('a')).toBe(40_000);
    expect(counter.take('a')).toBe(40_000);
    nowMs += 40_000;
    // a's minute has ended; b's has 20 s to go.
    expect(counter.take('a')).toBe(0);
    expect([counter.take('b'), counter.take('b')]).toEqual([0, 20_000]);
    expect(counter.size).toBe(2);
    nowMs += 61_000;
    expect(counter.take('c')).toBe(0);
    expect(counter.size).toBe(1);
  });

  it('counts an IPv6 client by its /64, and an IPv4 address written in IPv6 as that IPv4 address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });
});
