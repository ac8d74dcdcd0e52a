import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Donation } from '@bloodbank/shared/donation';
import type { NotificationList } from '@bloodbank/shared/notifications';
import type { Site, SiteDay, Slot, WeeklyHours } from '@bloodbank/shared/sites';
import { addDays } from '@bloodbank/shared/dates';
import { createTestApp, type TestApp } from './test-app';
import { createDonor, type TestUser } from './factories';
import { collect, donationForm, staffOf } from './donation-helpers';

/** TEMPORARY audit reproductions (time zone / midnight). Deleted after the audit. */

const EVERY_DAY_8_16 = (open = '08:00', close = '16:00'): WeeklyHours => ({
  monday: { open, close },
  tuesday: { open, close },
  wednesday: { open, close },
  thursday: { open, close },
  friday: { open, close },
  saturday: { open, close },
  sunday: { open, close },
});

async function appWithSite(now: string, tz: string, hours = EVERY_DAY_8_16()) {
  const t = await createTestApp({ now, env: { TIMEZONE: tz } });
  const admin = await staffOf(t);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/admin/sites',
    headers: admin.headers,
    payload: { name: 'Central', address: '1 Main Street', hours },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { t, admin, site: created.json<Site>() };
}

const get = (t: TestApp, url: string, as: TestUser) => t.app.inject({ method: 'GET', url, headers: as.headers });
const post = (t: TestApp, url: string, as: TestUser, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: as.headers, ...(payload ? { payload } : {}) });

describe('A: Manage Donations "Bookings due today" after the bank midnight', () => {
  let t: TestApp;
  afterAll(() => t?.close());
  it('lists a booking for today once today has come', async () => {
    // New York: Monday 2026-03-09 20:00 EDT = 2026-03-10T00:00Z.
    const made = await appWithSite('2026-03-10T00:00:00Z', 'America/New_York');
    t = made.t;
    const { admin, site } = made;
    const donor = await createDonor(t);
    const booked = await post(t, '/api/donations', donor, donationForm('2026-03-10', { site_id: site.id, slot: '10:00' }));
    expect(booked.statusCode, booked.body).toBe(201);
    const dueUrl = '/api/admin/donations?status=pending&due=true';
    const upcomingUrl = '/api/admin/donations?status=pending&due=false';
    expect((await get(t, dueUrl, admin)).json().total).toBe(0);
    expect((await get(t, upcomingUrl, admin)).json().total).toBe(1);
    // Tuesday 08:00 EDT: the booking is due today. The daily run goes first, as on the server.
    t.clock.set('2026-03-10T12:00:00Z');
    expect(t.clock.today()).toBe('2026-03-10');
    await t.app.runDailyWork();
    const due = (await get(t, dueUrl, admin)).json();
    const upcoming = (await get(t, upcomingUrl, admin)).json();
    // The same question asked another way (page=1 explicit) is computed afresh:
    const fresh = (await get(t, `${dueUrl}&pageSize=21`, admin)).json();
    console.log('A: due today (cached)', due.total, '| upcoming (cached)', upcoming.total, '| due today (fresh key)', fresh.total);
    expect(fresh.total).toBe(1);
    expect(due.total).toBe(1);
    expect(upcoming.total).toBe(0);
  });
});

describe('B: slots of the 91st day asked before midnight', () => {
  let t: TestApp;
  afterAll(() => t?.close());
  it('are offered once that day enters the 90-day window', async () => {
    // Kolkata: Monday 2026-03-09 23:59 IST = 18:29Z.
    const made = await appWithSite('2026-03-09T18:29:00Z', 'Asia/Kolkata');
    t = made.t;
    const { site } = made;
    const donor = await createDonor(t);
    const target = addDays('2026-03-09', 91);
    const slots = async () => (await get(t, `/api/sites/${site.id}/slots?date=${target}`, donor)).json<Slot[]>();
    expect(await slots()).toEqual([]);
    t.clock.set('2026-03-09T18:31:00Z'); // 00:01 IST Tuesday: target is 90 days ahead now
    expect(t.clock.today()).toBe('2026-03-10');
    const after = await slots();
    console.log('B: slots after midnight', after.length);
    const booked = await post(t, '/api/donations', donor, donationForm(target, { site_id: site.id, slot: '10:00' }));
    console.log('B: booking that date at 10:00', booked.statusCode);
    expect(booked.statusCode).toBe(201);
    expect(after.length).toBeGreaterThan(0);
  });
});

describe('C: a checked-in donor whose collection is recorded after midnight', () => {
  let t: TestApp;
  afterAll(() => t?.close());
  it('is not a no-show', async () => {
    // London: Tuesday 2026-03-10 15:40 GMT.
    const made = await appWithSite('2026-03-10T07:00:00Z', 'Europe/London');
    t = made.t;
    const { admin, site } = made;
    const donor = await createDonor(t);
    const booked = await post(t, '/api/donations', donor, donationForm('2026-03-10', { site_id: site.id, slot: '15:45' }));
    expect(booked.statusCode, booked.body).toBe(201);
    const id = booked.json<Donation>().id;
    t.clock.set('2026-03-10T15:40:00Z');
    const checkIn = await post(t, `/api/admin/donations/${id}/check-in`, admin);
    expect(checkIn.statusCode, checkIn.body).toBe(200);
    // Next morning 08:30, after the server's midnight run.
    t.clock.set('2026-03-11T00:05:00Z');
    const report = await t.app.runDailyWork();
    const day = (await get(t, `/api/admin/sites/${site.id}/day?date=2026-03-10`, admin)).json<SiteDay>();
    const mine = (await get(t, '/api/donations/mine', donor)).json<Donation[]>();
    t.clock.set('2026-03-11T08:30:00Z');
    const collected = await collect(t, id);
    const summary = (await get(t, '/api/donor/summary', donor)).json();
    console.log('C: noShows', report.noShows, '| day list', JSON.stringify(day.appointments.map((a) => [a.time, a.state, a.checked_in_at])), '| donor sees', mine[0]?.status);
    console.log('C: collect next morning ->', collected.statusCode, collected.body, '| feed:', summary.activities[0]?.message);
    expect(day.appointments[0]?.state).not.toBe('no_show');
  });
});

describe('D: the reminder the day before', () => {
  let t: TestApp;
  afterAll(() => t?.close());
  it('reaches a donor who booked for tomorrow after the day\'s run', async () => {
    const made = await appWithSite('2026-03-09T00:05:00Z', 'UTC');
    t = made.t;
    const { site } = made;
    const donor = await createDonor(t);
    const mover = await createDonor(t);
    // The bank's midnight run on Monday.
    await t.app.runDailyWork();
    // Monday 10:00: one books Tuesday; another books Friday then moves it to Tuesday.
    t.clock.set('2026-03-09T10:00:00Z');
    expect((await post(t, '/api/donations', donor, donationForm('2026-03-10', { site_id: site.id, slot: '11:00' }))).statusCode).toBe(201);
    const far = await post(t, '/api/donations', mover, donationForm('2026-03-13', { site_id: site.id, slot: '11:00' }));
    expect(far.statusCode).toBe(201);
    const moved = await post(t, `/api/donations/${far.json<Donation>().id}/reschedule`, mover, { date: '2026-03-10', site_id: site.id, slot: '11:15' });
    expect(moved.statusCode, moved.body).toBe(200);
    // The server's runs every 15 minutes on Monday, then Tuesday's midnight run.
    for (const at of ['2026-03-09T10:15:00Z', '2026-03-09T23:45:00Z', '2026-03-10T00:05:00Z', '2026-03-10T08:00:00Z']) {
      t.clock.set(at);
      const report = await t.app.runDailyWork();
      console.log('D: run at', at, JSON.stringify(report));
    }
    const kinds = async (who: TestUser) => (await get(t, '/api/notifications', who)).json<NotificationList>().items.map((n) => n.kind);
    console.log('D: donor notifications', await kinds(donor), '| mover', await kinds(mover));
    expect(await kinds(donor)).toContain('appointment_reminder');
  });
});

describe('E: DST in America/New_York, a site open 00:00-04:00', () => {
  let t: TestApp;
  afterAll(() => t?.close());
  it('spring forward (2026-03-08): 02:00-02:59 does not exist', async () => {
    const made = await appWithSite('2026-03-07T15:00:00Z', 'America/New_York', EVERY_DAY_8_16('00:00', '04:00'));
    t = made.t;
    const { admin, site } = made;
    const a = await createDonor(t);
    const b = await createDonor(t);
    const c = await createDonor(t);
    const slots = (await get(t, `/api/sites/${site.id}/slots?date=2026-03-08`, a)).json<Slot[]>();
    console.log('E1: slots offered on 2026-03-08', slots.map((s) => s.time).join(' '));
    const ids: number[] = [];
    for (const [who, slot] of [[a, '02:30'], [b, '03:30'], [c, '03:30']] as const) {
      const r = await post(t, '/api/donations', who, donationForm('2026-03-08', { site_id: site.id, slot }));
      console.log('E1: book', slot, r.statusCode);
      ids.push(r.json<Donation>().id);
    }
    const ics = async (who: TestUser, id: number) =>
      (await get(t, `/api/donations/${id}/calendar.ics`, who)).body.split(/\r?\n/).filter((l) => /^DT(START|END)/.test(l)).join(' ');
    console.log('E1: 02:30 booking .ics', await ics(a, ids[0]!));
    console.log('E1: 03:30 booking .ics', await ics(b, ids[1]!));
    // 03:10 EDT (07:10Z): is the 02:30 slot "late"?
    t.clock.set('2026-03-08T07:10:00Z');
    const day = (await get(t, `/api/admin/sites/${site.id}/day?date=2026-03-08`, admin)).json<SiteDay>();
    console.log('E1: day list at', t.clock.time(), JSON.stringify(day.appointments.map((x) => [x.time, x.late])));
  });
  it('fall back (2026-11-01): 01:00-01:59 twice', async () => {
    const made = await appWithSite('2026-10-31T15:00:00Z', 'America/New_York', EVERY_DAY_8_16('00:00', '04:00'));
    const t2 = made.t;
    try {
      const donor = await createDonor(t2);
      // 01:10 EST, the second time the clocks show 01:10 (06:10Z).
      t2.clock.set('2026-11-01T06:10:00Z');
      console.log('E2: bank time now', t2.clock.today(), t2.clock.time());
      const slots = (await get(t2, `/api/sites/${made.site.id}/slots?date=2026-11-01`, donor)).json<Slot[]>();
      console.log('E2: slots offered', slots.map((s) => s.time).join(' '));
      const r = await post(t2, '/api/donations', donor, donationForm('2026-11-01', { site_id: made.site.id, slot: '01:30' }));
      console.log('E2: book 01:30 ->', r.statusCode);
      const body = (await get(t2, `/api/donations/${r.json<Donation>().id}/calendar.ics`, donor)).body;
      console.log('E2: .ics', body.split(/\r?\n/).filter((l) => /^DT(START|END)/.test(l)).join(' '), '(now is 20261101T061000Z)');
    } finally {
      await t2.close();
    }
  });
});

describe('F: extreme offsets', () => {
  it.each([
    ['Pacific/Kiritimati', '2026-03-09T10:30:00Z', '2026-03-10', '2026-03-09'],
    ['Pacific/Pago_Pago', '2026-03-10T10:30:00Z', '2026-03-09', '2026-03-10'],
    ['Pacific/Auckland', '2026-03-09T11:30:00Z', '2026-03-10', '2026-03-09'],
  ])('%s at %s: today is %s', async (tz, now, bankToday, utcDay) => {
    const made = await appWithSite(now, tz);
    try {
      const donor = await createDonor(made.t);
      expect(made.t.clock.today()).toBe(bankToday);
      const past = await post(made.t, '/api/donations', donor, donationForm(utcDay < bankToday ? utcDay : addDays(bankToday, -1), { site_id: made.site.id, slot: '10:00' }));
      const today = await post(made.t, '/api/donations', donor, donationForm(bankToday, { site_id: made.site.id, slot: '15:45' }));
      console.log('F:', tz, 'past ->', past.statusCode, past.json().errors, '| today 15:45 ->', today.statusCode);
      expect(past.statusCode).toBe(422);
    } finally {
      await made.t.close();
    }
  });
});
