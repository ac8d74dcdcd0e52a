import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Donation, DonorSummary } from '@bloodbank/shared/donation';
import type { NotificationList } from '@bloodbank/shared/notifications';
import type { AffectedBookings, PublicSite, Site, SiteDay, Slot, WeeklyHours } from '@bloodbank/shared/sites';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createDonor, createPatient, type TestUser } from '../../../test/factories';
import { auditEntries } from '../../../test/admin-fixtures';
import { collect, donationForm, PASSING_SCREENING, setToday, staffOf } from '../../../test/donation-helpers';

/**
 * Donation sites and appointments (PRODUCT.md 3.6): sites and their calendars, booking a slot
 * (atomically, within capacity), moving and cancelling, the day list with check-in and collection,
 * no-shows and the calendar file. On the engine the suite runs on (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL).
 */

/** A Monday. */
const MONDAY = '2026-03-09';
const TUESDAY = '2026-03-10';
const SATURDAY = '2026-03-14';
const SUNDAY = '2026-03-15';
const NEXT_MONDAY = '2026-03-16';

const WEEKDAYS_8_TO_16: WeeklyHours = {
  monday: { open: '08:00', close: '16:00' },
  tuesday: { open: '08:00', close: '16:00' },
  wednesday: { open: '08:00', close: '16:00' },
  thursday: { open: '08:00', close: '16:00' },
  friday: { open: '08:00', close: '16:00' },
  saturday: { open: '09:00', close: '12:00' },
  sunday: null,
};

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: `${MONDAY}T07:00:00Z` });
  admin = await staffOf(t);
});
afterAll(() => t.close());
beforeEach(() => setToday(t, MONDAY, '07:00:00'));

const get = (url: string, as: TestUser) => t.app.inject({ method: 'GET', url, headers: as.headers });
const post = (url: string, as: TestUser, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: as.headers, ...(payload ? { payload } : {}) });
const patch = (url: string, as: TestUser, payload: object) => t.app.inject({ method: 'PATCH', url, headers: as.headers, payload });

async function createSite(overrides: Partial<Record<keyof Site, unknown>> = {}): Promise<Site> {
  const response = await post('/api/admin/sites', admin, {
    name: 'Town Hall',
    address: '1 Main Street, Pune',
    hours: WEEKDAYS_8_TO_16,
    closed_dates: [],
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Site>();
}

/** An app of its own whose bank is in India (UTC+05:30), at `now`, with one site (Town Hall unless overridden). The caller closes it. */
async function siteInKolkata(now: string, overrides: Partial<Record<keyof Site, unknown>> = {}): Promise<{ kolkata: TestApp; site: Site }> {
  const kolkata = await createTestApp({ now, env: { TIMEZONE: 'Asia/Kolkata' } });
  const staff = await staffOf(kolkata);
  const created = await kolkata.app.inject({
    method: 'POST',
    url: '/api/admin/sites',
    headers: staff.headers,
    payload: { name: 'Town Hall', address: '1 Main Street, Pune', hours: WEEKDAYS_8_TO_16, ...overrides },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { kolkata, site: created.json<Site>() };
}

async function slotsOf(siteId: number, date: string, as: TestUser): Promise<Slot[]> {
  const response = await get(`/api/sites/${siteId}/slots?date=${date}`, as);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Slot[]>();
}
const bookAt = (donor: TestUser, siteId: number | undefined, date: string, slot: string | undefined) =>
  post('/api/donations', donor, donationForm(date, { site_id: siteId, slot }));
const dayOf = async (siteId: number, date: string) => {
  const response = await get(`/api/admin/sites/${siteId}/day?date=${date}`, admin);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SiteDay>();
};
const placesLeft = async (siteId: number, date: string, time: string, as: TestUser) =>
  (await slotsOf(siteId, date, as)).find((slot) => slot.time === time)?.available;

/** The daily run (daily-work.ts), as the server runs it: answers how many bookings became no-shows. */
const runNoShows = async () => (await t.app.runDailyWork()).noShows;

// Every test leaves exactly the sites it made active; the others deactivate them afterwards.
/**
 * Puts the sites of earlier tests out of the way: inactive, and renamed, since a site keeps its
 * name when deactivated and the next test's Town Hall would otherwise be refused as taken.
 */
async function deactivateAllSites() {
  await t.db
    .updateTable('sites')
    .set({ active: 0, name: sql<string>`'Retired site ' || id` })
    .execute();
}

describe('sites (staff)', () => {
  beforeEach(deactivateAllSites);

  it('creates a site with the defaults, lists it for staff and, without its capacity, for donors', async () => {
    const site = await createSite();
    expect(site).toEqual({
      id: expect.any(Number),
      name: 'Town Hall',
      address: '1 Main Street, Pune',
      hours: WEEKDAYS_8_TO_16,
      slot_minutes: 15,
      capacity: 2,
      closed_dates: [],
      active: true,
    });
    const donor = await createDonor(t);
    const publicSites = (await get('/api/sites', donor)).json<PublicSite[]>();
    expect(publicSites).toEqual([
      { id: site.id, name: 'Town Hall', address: '1 Main Street, Pune', hours: WEEKDAYS_8_TO_16, slot_minutes: 15, closed_dates: [] },
    ]);
    const staffSites = (await get('/api/admin/sites', admin)).json<Site[]>();
    expect(staffSites[0]).toEqual(site);
    expect((await auditEntries(t, 'site.created')).at(-1)).toMatchObject({ entity: 'site', entity_id: site.id });
  });

  it('refuses hours that close before they open, a week with no open day, and a slot length out of range, per field', async () => {
    const response = await post('/api/admin/sites', admin, {
      name: '',
      address: 'Somewhere',
      hours: { ...WEEKDAYS_8_TO_16, monday: { open: '16:00', close: '08:00' }, tuesday: { open: '8am', close: '16:00' } },
      slot_minutes: 2,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toMatchObject({
      name: 'Site name is required',
      'hours.monday.close': 'Closing time must be after opening time',
      'hours.tuesday.open': 'Please enter a time as HH:MM (24-hour)',
      slot_minutes: 'Slots last at least 5 minutes',
    });
    const closedAllWeek = await post('/api/admin/sites', admin, {
      name: 'Nowhere',
      address: 'Somewhere',
      hours: Object.fromEntries(Object.keys(WEEKDAYS_8_TO_16).map((day) => [day, null])),
    });
    expect(closedAllWeek.statusCode).toBe(422);
    expect(closedAllWeek.json().errors).toEqual({ hours: 'Open the site on at least one day of the week' });
  });

  it('refuses a day open for less than one slot, on creation and on an edit of the hours or of the slot length', async () => {
    const hours = { ...WEEKDAYS_8_TO_16, tuesday: { open: '08:00', close: '08:10' } };
    const created = await post('/api/admin/sites', admin, { name: 'Kiosk', address: 'Somewhere', hours });
    expect(created.statusCode).toBe(422);
    expect(created.json().errors).toEqual({ 'hours.tuesday.close': 'Open for at least one slot (15 minutes)' });

    const site = await createSite({ name: 'Short Tuesdays', hours: { ...WEEKDAYS_8_TO_16, tuesday: { open: '08:00', close: '09:00' } } });
    try {
      const shorter = await patch(`/api/admin/sites/${site.id}`, admin, { hours });
      expect(shorter.statusCode).toBe(422);
      expect(shorter.json().errors).toEqual({ 'hours.tuesday.close': 'Open for at least one slot (15 minutes)' });
      const longer = await patch(`/api/admin/sites/${site.id}`, admin, { slot_minutes: 90 });
      expect(longer.statusCode).toBe(422);
      expect(longer.json().errors).toEqual({ slot_minutes: 'Longer than the opening hours on Tuesday' });
      // Nothing was saved; exactly one slot fits.
      expect((await patch(`/api/admin/sites/${site.id}`, admin, { slot_minutes: 60 })).json()).toMatchObject({ slot_minutes: 60, hours: { tuesday: { close: '09:00' } } });
      // A site saved before this rule with such a day can still be renamed and deactivated.
      await t.db.updateTable('sites').set({ slot_minutes: 90 }).where('id', '=', site.id).execute();
      expect((await patch(`/api/admin/sites/${site.id}`, admin, { name: 'Short Tuesdays (old)' })).statusCode).toBe(200);
      expect((await patch(`/api/admin/sites/${site.id}`, admin, { active: false })).statusCode).toBe(200);
    } finally {
      await t.db.updateTable('sites').set({ active: 0 }).where('id', '=', site.id).execute();
    }
  });

  it('edits a site and deactivates it: donors no longer see it or its slots, staff still do', async () => {
    const site = await createSite();
    const donor = await createDonor(t);
    const edited = await patch(`/api/admin/sites/${site.id}`, admin, { capacity: 4, closed_dates: ['2026-03-20', '2026-03-12', '2026-03-12'] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ capacity: 4, closed_dates: ['2026-03-12', '2026-03-20'] });

    const deactivated = await patch(`/api/admin/sites/${site.id}`, admin, { active: false });
    expect(deactivated.json()).toMatchObject({ active: false });
    expect((await get('/api/sites', donor)).json()).toEqual([]);
    expect((await get(`/api/sites/${site.id}/slots?date=${TUESDAY}`, donor)).statusCode).toBe(404);
    expect((await get('/api/admin/sites', admin)).json<Site[]>().find((row) => row.id === site.id)).toMatchObject({ active: false });
    expect((await auditEntries(t, 'site.deactivated')).at(-1)).toMatchObject({ entity_id: site.id });
    expect((await patch('/api/admin/sites/999999', admin, { active: false })).statusCode).toBe(404);
  });

  it('is for admins only; the site list and slots are for anyone signed in', async () => {
    const donor = await createDonor(t);
    const patient = await createPatient(t);
    expect((await get('/api/admin/sites', donor)).statusCode).toBe(403);
    expect((await post('/api/admin/sites', patient, { name: 'x' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/sites' })).statusCode).toBe(401);
    expect((await get('/api/sites', patient)).statusCode).toBe(200);
  });
});

describe('slots (GET /api/sites/:id/slots)', () => {
  let site: Site;
  let donor: TestUser;
  beforeAll(async () => {
    await deactivateAllSites();
    site = await createSite({ closed_dates: [NEXT_MONDAY] });
    donor = await createDonor(t);
  });

  it('cuts the opening hours into slots that end by closing time: 08:00 to 15:45', async () => {
    const slots = await slotsOf(site.id, TUESDAY, donor);
    expect(slots).toHaveLength(32);
    expect(slots[0]).toEqual({ time: '08:00', available: 2 });
    expect(slots.at(-1)).toEqual({ time: '15:45', available: 2 });
    expect((await slotsOf(site.id, SATURDAY, donor)).map((slot) => slot.time)).toEqual(
      ['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45', '11:00', '11:15', '11:30', '11:45'],
    );
  });

  it('offers nothing on a closed weekday or a closed date', async () => {
    expect(await slotsOf(site.id, SUNDAY, donor)).toEqual([]);
    expect(await slotsOf(site.id, NEXT_MONDAY, donor)).toEqual([]);
  });

  it('offers nothing past the 90 days a booking may be made ahead, which booking would refuse', async () => {
    // Today is Monday 9 March: Friday 5 June is 88 days ahead, Monday 8 June 91.
    expect((await slotsOf(site.id, '2026-06-05', donor)).length).toBeGreaterThan(0);
    expect(await slotsOf(site.id, '2026-06-08', donor)).toEqual([]);
    expect((await bookAt(donor, site.id, '2026-06-08', '09:00')).json().errors).toMatchObject({
      date: 'Please choose a date within the next 90 days',
    });
  });

  it("today, offers only the slots that have not begun, by the bank's clock", async () => {
    setToday(t, MONDAY, '09:00:00');
    const slots = await slotsOf(site.id, MONDAY, donor);
    expect(slots[0]!.time).toBe('09:15');
    setToday(t, MONDAY, '16:00:00');
    expect(await slotsOf(site.id, MONDAY, donor)).toEqual([]);
  });

  it('a slot length that does not divide the day leaves no slot running past closing', async () => {
    const odd = await createSite({ name: 'Mobile unit', hours: { ...WEEKDAYS_8_TO_16, tuesday: { open: '08:00', close: '09:00' } }, slot_minutes: 25 });
    expect((await slotsOf(odd.id, TUESDAY, donor)).map((slot) => slot.time)).toEqual(['08:00', '08:25']);
    await patch(`/api/admin/sites/${odd.id}`, admin, { active: false });
  });

  it('answers 422 for a date that is not one', async () => {
    const response = await get(`/api/sites/${site.id}/slots?date=2026-02-30`, donor);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ date: 'Please enter a valid date (YYYY-MM-DD)' });
    // Missing, or given twice: each said as it is.
    expect((await get(`/api/sites/${site.id}/slots`, donor)).json().errors).toEqual({ date: 'Date is required' });
    const twice = await get(`/api/sites/${site.id}/slots?date=2026-12-01&date=2026-12-02`, donor);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors).toEqual({ date: 'Please enter a valid date (YYYY-MM-DD)' });
  });
});

describe('booking a slot (POST /api/donations with site_id and slot)', () => {
  let site: Site;
  beforeAll(async () => {
    await deactivateAllSites();
    site = await createSite({ closed_dates: [NEXT_MONDAY] });
  });

  it('needs a site and a slot once a site exists: 422 on each field', async () => {
    const donor = await createDonor(t);
    const response = await bookAt(donor, undefined, TUESDAY, undefined);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ site_id: 'Please choose a donation site', slot: 'Please choose a time slot' });
  });

  it('takes the last slot before closing, and refuses closing time, a closed weekday and a holiday', async () => {
    const donor = await createDonor(t);
    for (const [date, slot] of [
      [TUESDAY, '16:00'],
      [TUESDAY, '08:05'],
      [SUNDAY, '09:00'],
      [NEXT_MONDAY, '09:00'],
    ] as const) {
      const refused = await bookAt(donor, site.id, date, slot);
      expect(refused.statusCode, `${date} ${slot}`).toBe(422);
      expect(refused.json().errors).toEqual({ slot: 'This time is not open at this site on that date. Please choose another time.' });
    }
    const last = await bookAt(donor, site.id, TUESDAY, '15:45');
    expect(last.statusCode, last.body).toBe(201);
    expect(last.json<Donation>()).toMatchObject({
      status: 'pending',
      date: TUESDAY,
      appointment: { site_id: site.id, site_name: 'Town Hall', address: '1 Main Street, Pune', time: '15:45', ends: '16:00' },
    });
    expect((await get('/api/donor/summary', donor)).json<DonorSummary>().latest_donation?.appointment).toMatchObject({ time: '15:45' });
  });

  it('refuses a slot of today that has begun, and a site that is not taking bookings', async () => {
    setToday(t, MONDAY, '10:00:00');
    const donor = await createDonor(t);
    expect((await bookAt(donor, site.id, MONDAY, '10:00')).statusCode).toBe(422);
    const closedSite = await createSite({ name: 'Closed', active: false });
    const refused = await bookAt(donor, closedSite.id, TUESDAY, '09:00');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ site_id: 'This site is not taking bookings. Please choose another site.' });
    expect((await bookAt(donor, site.id, MONDAY, '10:15')).statusCode).toBe(201);
  });

  it('holds each place once: of twenty parallel bookings of a slot with capacity 2, exactly 2 succeed', async () => {
    const donors = await Promise.all(Array.from({ length: 20 }, () => createDonor(t)));
    const responses = await Promise.all(donors.map((donor) => bookAt(donor, site.id, TUESDAY, '10:30')));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    const refused = responses.filter((response) => response.statusCode === 409);
    expect(refused).toHaveLength(18);
    expect(refused[0]!.json()).toMatchObject({ detail: 'This time slot is full. Please choose another time.', code: 'slot_full' });
    expect(await placesLeft(site.id, TUESDAY, '10:30', donors[0]!)).toBe(0);
    expect((await dayOf(site.id, TUESDAY)).appointments.filter((row) => row.time === '10:30')).toHaveLength(2);
  });

  it('a booking made before the slot length grew keeps its place in the slot its time now falls in', async () => {
    const small = await createSite({ name: 'One chair', capacity: 1 });
    try {
      const [early, late] = await Promise.all([createDonor(t), createDonor(t)]);
      const booked = (await bookAt(early, small.id, TUESDAY, '09:15')).json<Donation>();
      const longer = await patch(`/api/admin/sites/${small.id}`, admin, { slot_minutes: 30 });
      expect(longer.json()).toMatchObject({ slot_minutes: 30, cancelled_bookings: 0 });

      // 09:15 lies in the new 09:00-09:30 slot: it is full, and booking it is refused.
      expect(await placesLeft(small.id, TUESDAY, '09:00', late)).toBe(0);
      expect(await placesLeft(small.id, TUESDAY, '09:30', late)).toBe(1);
      const refused = await bookAt(late, small.id, TUESDAY, '09:00');
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'slot_full' });
      // Its own booking may move to the slot it sits in; then the other slot frees nothing it held.
      const moved = await post(`/api/donations/${booked.id}/reschedule`, early, { date: TUESDAY, site_id: small.id, slot: '09:00' });
      expect(moved.statusCode, moved.body).toBe(200);
      expect((await bookAt(late, small.id, TUESDAY, '09:30')).statusCode).toBe(201);
      expect(await placesLeft(small.id, TUESDAY, '09:30', late)).toBe(0);
    } finally {
      await t.db.updateTable('sites').set({ active: 0 }).where('id', '=', small.id).execute();
    }
  });

  it('cancelling frees the place at once', async () => {
    const [first, second, third] = await Promise.all([createDonor(t), createDonor(t), createDonor(t)]);
    const booked = (await bookAt(first!, site.id, TUESDAY, '11:00')).json<Donation>();
    expect((await bookAt(second!, site.id, TUESDAY, '11:00')).statusCode).toBe(201);
    expect((await bookAt(third!, site.id, TUESDAY, '11:00')).statusCode).toBe(409);
    expect((await post(`/api/donations/${booked.id}/cancel`, first!)).json()).toMatchObject({ status: 'cancelled', appointment: { time: '11:00' } });
    expect(await placesLeft(site.id, TUESDAY, '11:00', third!)).toBe(1);
    expect((await bookAt(third!, site.id, TUESDAY, '11:00')).statusCode).toBe(201);
  });

  it('without any active site, a booking by date alone works as in the spec', async () => {
    await deactivateAllSites();
    try {
      const donor = await createDonor(t);
      const booked = await bookAt(donor, undefined, TUESDAY, undefined);
      expect(booked.statusCode, booked.body).toBe(201);
      expect(booked.json<Donation>().appointment).toBeNull();
    } finally {
      await t.db.updateTable('sites').set({ active: 1 }).where('id', '=', site.id).execute();
    }
  });
});

describe("the bank's time zone (TIMEZONE) decides today and each slot", () => {
  it('in Asia/Kolkata at 23:50 UTC on Monday, it is already Tuesday 05:20: Tuesday offers the slots after 05:20, Monday is past', async () => {
    // 2026-03-09T23:50Z is 2026-03-10 05:20 in India (UTC+05:30): the UTC date and the bank's differ.
    // An early blood drive on Tuesdays, so the bank's morning falls inside the opening hours.
    const { kolkata, site } = await siteInKolkata(`${MONDAY}T23:50:00Z`, {
      name: 'Dawn drive',
      hours: { ...WEEKDAYS_8_TO_16, tuesday: { open: '05:00', close: '07:00' } },
    });
    try {
      const donor = await createDonor(kolkata);
      const slots = async (date: string) => {
        const response = await kolkata.app.inject({ method: 'GET', url: `/api/sites/${site.id}/slots?date=${date}`, headers: donor.headers });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<Slot[]>().map((slot) => slot.time);
      };
      const bookSlot = (date: string, slot: string) =>
        kolkata.app.inject({ method: 'POST', url: '/api/donations', headers: donor.headers, payload: donationForm(date, { site_id: site.id, slot }) });

      // Local today: 05:00 and 05:15 have begun; by UTC (Monday 23:50) the whole Tuesday would be ahead.
      expect(await slots(TUESDAY)).toEqual(['05:30', '05:45', '06:00', '06:15', '06:30', '06:45']);
      // The UTC date is the bank's yesterday: nothing left to book.
      expect(await slots(MONDAY)).toEqual([]);

      const notOpenYet = { slot: 'This time is not open at this site on that date. Please choose another time.' };
      const beforeOpening = await bookSlot(TUESDAY, '04:45');
      expect(beforeOpening.statusCode).toBe(422);
      expect(beforeOpening.json().errors).toEqual(notOpenYet);
      const begun = await bookSlot(TUESDAY, '05:15');
      expect(begun.statusCode).toBe(422);
      expect(begun.json().errors).toEqual(notOpenYet);
      const utcToday = await bookSlot(MONDAY, '15:45');
      expect(utcToday.statusCode).toBe(422);
      expect(utcToday.json().errors).toMatchObject({ date: 'Date cannot be in the past' });

      const first = await bookSlot(TUESDAY, '05:30');
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json<Donation>()).toMatchObject({ status: 'pending', date: TUESDAY, appointment: { time: '05:30', ends: '05:45' } });
    } finally {
      await kolkata.close();
    }
  });
});

describe('moving a booking (POST /api/donations/:id/reschedule)', () => {
  let site: Site;
  beforeAll(async () => {
    await deactivateAllSites();
    site = await createSite({ capacity: 1 });
  });

  it('moves to another free slot and frees the old place at once', async () => {
    const donor = await createDonor(t);
    const other = await createDonor(t);
    const booked = (await bookAt(donor, site.id, TUESDAY, '09:00')).json<Donation>();
    const moved = await post(`/api/donations/${booked.id}/reschedule`, donor, { date: SATURDAY, site_id: site.id, slot: '11:45' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Donation>()).toMatchObject({ id: booked.id, status: 'pending', date: SATURDAY, appointment: { time: '11:45', ends: '12:00' } });
    expect(await placesLeft(site.id, TUESDAY, '09:00', other)).toBe(1);
    expect(await placesLeft(site.id, SATURDAY, '11:45', other)).toBe(0);
    expect((await bookAt(other, site.id, TUESDAY, '09:00')).statusCode).toBe(201);
  });

  it("tells the donor the new day, place and time, and a move to the booking's own slot changes nothing", async () => {
    const donor = await createDonor(t);
    const booked = (await bookAt(donor, site.id, TUESDAY, '10:00')).json<Donation>();
    const notifications = async () => (await get('/api/notifications', donor)).json<NotificationList>().items;
    const activities = async () => (await get('/api/donor/summary', donor)).json<DonorSummary>().activities.length;
    const [sentBefore, loggedBefore] = [(await notifications()).length, await activities()];

    const same = await post(`/api/donations/${booked.id}/reschedule`, donor, { date: TUESDAY, site_id: site.id, slot: '10:00' });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json<Donation>()).toMatchObject({ id: booked.id, date: TUESDAY, appointment: { time: '10:00' } });
    expect(await notifications()).toHaveLength(sentBefore);
    expect(await activities()).toBe(loggedBefore);

    expect((await post(`/api/donations/${booked.id}/reschedule`, donor, { date: SATURDAY, site_id: site.id, slot: '10:30' })).statusCode).toBe(200);
    const [latest] = await notifications();
    expect(latest).toMatchObject({
      title: 'Your booking is moved',
      body: `Your donation is now booked for 14 Mar at 10:30, ${site.name} (${site.address}). You can move or cancel it from your dashboard.`,
    });
    expect(await activities()).toBe(loggedBefore + 1);
  });

  it('refuses a full slot (409), a closed one (422), somebody else\'s booking (403) and a decided one (409)', async () => {
    const donor = await createDonor(t);
    const other = await createDonor(t);
    const mine = (await bookAt(donor, site.id, TUESDAY, '12:00')).json<Donation>();
    expect((await bookAt(other, site.id, TUESDAY, '12:15')).statusCode).toBe(201);

    const full = await post(`/api/donations/${mine.id}/reschedule`, donor, { date: TUESDAY, site_id: site.id, slot: '12:15' });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ code: 'slot_full' });
    const closed = await post(`/api/donations/${mine.id}/reschedule`, donor, { date: SUNDAY, site_id: site.id, slot: '09:00' });
    expect(closed.statusCode).toBe(422);
    const notMine = await post(`/api/donations/${mine.id}/reschedule`, other, { date: TUESDAY, site_id: site.id, slot: '13:00' });
    expect(notMine.statusCode).toBe(403);
    // Staying in its own slot is not "full": its own place does not count against it.
    expect((await post(`/api/donations/${mine.id}/reschedule`, donor, { date: TUESDAY, site_id: site.id, slot: '12:00' })).statusCode).toBe(200);

    await post(`/api/donations/${mine.id}/cancel`, donor);
    const decided = await post(`/api/donations/${mine.id}/reschedule`, donor, { date: TUESDAY, site_id: site.id, slot: '13:00' });
    expect(decided.statusCode).toBe(409);
    // It says what became of the booking, not only that it is not pending.
    expect(decided.json().detail).toBe('This booking was cancelled. It can no longer be moved.');
  });
});

describe('closing a site at booked times (PATCH /api/admin/sites/:id with closed dates or new hours)', () => {
  let site: Site;
  beforeAll(async () => {
    await deactivateAllSites();
    site = await createSite();
  });

  const statusOf = async (id: number) =>
    (await t.db.selectFrom('donations').select(['status', 'outcome_reason']).where('id', '=', id).executeTakeFirstOrThrow());
  const latestNotification = async (donor: TestUser) => (await get('/api/notifications', donor)).json<NotificationList>().items[0];

  it('a deferral that cancels a booking at a site names it by its time and site, as the booking was named', async () => {
    const donor = await createDonor(t);
    const booked = await bookAt(donor, site.id, TUESDAY, '09:00');
    expect(booked.statusCode, booked.body).toBe(201);
    const deferred = await post(`/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: '2026-03-20', reason: 'Travel abroad' });
    expect(deferred.statusCode, deferred.body).toBe(201);
    expect((await latestNotification(donor))?.body).toContain(`Your booking for 10 Mar at 09:00, ${site.name} (${site.address}) has been cancelled.`);
  });

  it('cancels the bookings at the times it closes, frees their places and tells each donor; the others and a checked-in donor stay', async () => {
    const [onHoliday, afterNewClosing, beforeNewClosing, nextWeek, inTheChair, laterToday, runningLate] = await Promise.all(
      Array.from({ length: 7 }, () => createDonor(t)),
    );
    const book = async (donor: TestUser, date: string, slot: string) => {
      const response = await bookAt(donor, site.id, date, slot);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<Donation>().id;
    };
    const holiday = await book(onHoliday!, TUESDAY, '09:00');
    const afterClosing = await book(afterNewClosing!, SATURDAY, '11:00');
    const early = await book(beforeNewClosing!, SATURDAY, '10:45');
    const later = await book(nextWeek!, NEXT_MONDAY, '09:00');
    const chair = await book(inTheChair!, MONDAY, '08:00');
    const today = await book(laterToday!, MONDAY, '09:00');
    const late = await book(runningLate!, MONDAY, '08:00');
    setToday(t, MONDAY, '08:05:00');
    expect((await post(`/api/admin/donations/${chair}/check-in`, admin)).statusCode).toBe(200);

    // A name alone changes no calendar: nothing is cancelled.
    const renamed = await patch(`/api/admin/sites/${site.id}`, admin, { name: 'Town Hall Centre' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Town Hall Centre', cancelled_bookings: 0 });

    const calendar = { closed_dates: [MONDAY, TUESDAY], hours: { ...WEEKDAYS_8_TO_16, saturday: { open: '09:00', close: '11:00' } } };
    // Asked before saving, as the form does: these four, in time order, with their donors' names; nothing changes yet.
    const asked = await post(`/api/admin/sites/${site.id}/affected-bookings`, admin, calendar);
    expect(asked.statusCode, asked.body).toBe(200);
    const affected = asked.json<AffectedBookings>().bookings;
    expect(affected.map((booking) => [booking.id, booking.date, booking.slot])).toEqual([
      [late, MONDAY, '08:00'],
      [today, MONDAY, '09:00'],
      [holiday, TUESDAY, '09:00'],
      [afterClosing, SATURDAY, '11:00'],
    ]);
    const mondayList = (await dayOf(site.id, MONDAY)).appointments;
    expect(affected[0]!.donor_name).toBe(mondayList.find((row) => row.donation_id === late)!.donor_name);
    for (const id of [holiday, afterClosing, today, late]) expect((await statusOf(id)).status).toBe('pending');

    const closing = await patch(`/api/admin/sites/${site.id}`, admin, calendar);
    expect(closing.statusCode, closing.body).toBe(200);
    expect(closing.json()).toMatchObject({ closed_dates: [MONDAY, TUESDAY], cancelled_bookings: 4 });
    // Asked again, the same question gets today's answer, not the one before the save.
    const again = await post(`/api/admin/sites/${site.id}/affected-bookings`, admin, calendar);
    expect(again.json<AffectedBookings>().bookings).toEqual([]);

    // Today's bookings too, the 08:00 one whose donor is running late among them: none of them may come.
    for (const id of [holiday, afterClosing, today, late]) {
      expect(await statusOf(id)).toEqual({ status: 'cancelled', outcome_reason: 'The site is closed at that time.' });
    }
    for (const id of [early, later, chair]) expect((await statusOf(id)).status).toBe('pending');
    expect((await dayOf(site.id, TUESDAY)).appointments).toEqual([]);
    expect((await dayOf(site.id, MONDAY)).appointments.map((row) => [row.time, row.state])).toEqual([['08:00', 'checked_in']]);

    expect(await latestNotification(onHoliday!)).toMatchObject({
      title: 'Your booking is cancelled',
      body: 'Your booking at Town Hall Centre (1 Main Street, Pune) on 10 Mar at 09:00 is cancelled: the site is closed then. We are sorry. Please book another time from your dashboard.',
    });
    expect((await latestNotification(beforeNewClosing!))?.title).toBe('Your donation is booked');
    const emails = await t.db.selectFrom('jobs').select('payload').where('kind', '=', 'email').execute();
    expect(emails.filter((job) => job.payload.includes(`${onHoliday!.username}@example.org`) && job.payload.includes('Your booking is cancelled'))).toHaveLength(1);
    const summary = (await get('/api/donor/summary', onHoliday!)).json<DonorSummary>();
    expect(summary.activities[0]?.message).toBe('Your booking for 10 Mar at 09:00, Town Hall Centre was cancelled: the site is closed at that time.');
    expect((await auditEntries(t, 'donation.cancelled')).filter((entry) => [holiday, afterClosing, today, late].includes(entry.entity_id!))).toHaveLength(4);

    // The donor is free to book again at once.
    expect((await bookAt(onHoliday!, site.id, NEXT_MONDAY, '10:00')).statusCode).toBe(201);
  });

  it('a save that leaves the calendar as it was cancels nothing, not even a booking an earlier edit closed', async () => {
    const donor = await createDonor(t);
    const booked = (await bookAt(donor, site.id, NEXT_MONDAY, '11:00')).json<Donation>();
    // Closed before closing cancelled bookings (decision 0009): the booking stayed.
    const current = (await get('/api/admin/sites', admin)).json<Site[]>().find((candidate) => candidate.id === site.id)!;
    const closedDates = [...current.closed_dates, NEXT_MONDAY].sort();
    await t.db.updateTable('sites').set({ closed_dates: JSON.stringify(closedDates) }).where('id', '=', site.id).execute();

    // The form sends hours and closed dates with every save, unchanged here.
    const saved = await patch(`/api/admin/sites/${site.id}`, admin, {
      name: 'Town Hall Annex',
      hours: current.hours,
      closed_dates: [...closedDates].reverse(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ name: 'Town Hall Annex', cancelled_bookings: 0 });
    expect((await statusOf(booked.id)).status).toBe('pending');
  });
});

describe("the site's day list, check-in and collection", () => {
  let site: Site;
  beforeAll(async () => {
    await deactivateAllSites();
    site = await createSite();
  });

  it('lists the day by time with each state, and counts them', async () => {
    const [early, late, absent, cancelling] = await Promise.all([createDonor(t, { first_name: 'Asha', last_name: 'Kulkarni', bloodgroup: 'A+' }), createDonor(t), createDonor(t), createDonor(t)]);
    const earlyBooking = (
      await post('/api/donations', early!, donationForm(TUESDAY, { site_id: site.id, slot: '09:00', disease: 'Diabetes', lastDonation: '2025-06-01' }))
    ).json<Donation>();
    const lateBooking = (await bookAt(late!, site.id, TUESDAY, '10:00')).json<Donation>();
    (await bookAt(absent!, site.id, TUESDAY, '08:30')).json<Donation>();
    const cancelled = (await bookAt(cancelling!, site.id, TUESDAY, '08:45')).json<Donation>();
    await post(`/api/donations/${cancelled.id}/cancel`, cancelling!);

    // Check-in only on the day.
    const tooEarly = await post(`/api/admin/donations/${earlyBooking.id}/check-in`, admin);
    expect(tooEarly.statusCode).toBe(409);
    expect(tooEarly.json().detail).toBe(`This booking is for ${TUESDAY} and can be checked in on that day.`);

    setToday(t, TUESDAY, '08:50:00');
    const checkedIn = await post(`/api/admin/donations/${earlyBooking.id}/check-in`, admin);
    expect(checkedIn.statusCode, checkedIn.body).toBe(200);
    expect((await post(`/api/admin/donations/${earlyBooking.id}/check-in`, admin)).json().detail).toBe('This donor has already been checked in.');
    expect((await post(`/api/admin/donations/${lateBooking.id}/check-in`, await createDonor(t))).statusCode).toBe(403);

    let day = await dayOf(site.id, TUESDAY);
    expect(day).toMatchObject({ date: TUESDAY, open: true, hours: { open: '08:00', close: '16:00' } });
    expect(day.appointments.map((row) => [row.time, row.state])).toEqual([
      ['08:30', 'booked'],
      ['09:00', 'checked_in'],
      ['10:00', 'booked'],
    ]);
    // At 08:50 the 08:30 slot (15 minutes) is over and nobody checked its donor in: late. The 10:00 one is not yet.
    expect(day.appointments.map((row) => row.late)).toEqual([true, false, false]);
    expect(day.appointments[1]).toMatchObject({ donor_name: 'Asha Kulkarni', bloodgroup: 'A+', units: 1, donation_id: earlyBooking.id });
    // What the donor declared, for the staff who collect from this list.
    expect(day.appointments[1]).toMatchObject({ disease: 'Diabetes', lastDonation: '2025-06-01' });
    expect(day.appointments[0]).toMatchObject({ disease: 'None', lastDonation: null });

    // Collection from the list: one collected, one deferred by a failed screening.
    expect((await collect(t, earlyBooking.id)).json()).toMatchObject({ status: 'collected' });
    expect((await collect(t, lateBooking.id, { ...PASSING_SCREENING, haemoglobin_g_dl: 11 })).json()).toMatchObject({ status: 'deferred' });

    // The next day's run: the donor who never came is a no-show.
    setToday(t, '2026-03-11', '00:05:00');
    expect(await runNoShows()).toBeGreaterThanOrEqual(1);
    day = await dayOf(site.id, TUESDAY);
    expect(day.counts).toEqual({ booked: 0, checked_in: 0, collected: 1, deferred: 1, no_show: 1 });
    expect(day.appointments.map((row) => row.state)).toEqual(['no_show', 'collected', 'deferred']);
    expect(day.appointments.some((row) => row.late)).toBe(false);
  });

  it('a donor checked in cannot move or cancel the booking from their phone: it stays on the day list', async () => {
    const donor = await createDonor(t);
    const booking = (await bookAt(donor, site.id, TUESDAY, '11:00')).json<Donation>();
    setToday(t, TUESDAY, '10:55:00');
    expect((await post(`/api/admin/donations/${booking.id}/check-in`, admin)).statusCode).toBe(200);

    const move = await post(`/api/donations/${booking.id}/reschedule`, donor, { date: SATURDAY, site_id: site.id, slot: '11:00' });
    expect(move.statusCode).toBe(409);
    expect(move.json()).toMatchObject({
      code: 'checked_in',
      detail: 'You are checked in for this booking, so it can no longer be moved here. Please speak to the staff at the site.',
    });
    const cancel = await post(`/api/donations/${booking.id}/cancel`, donor);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().detail).toBe('You are checked in for this booking, so it can no longer be cancelled here. Please speak to the staff at the site.');

    const row = (await dayOf(site.id, TUESDAY)).appointments.find((appointment) => appointment.donation_id === booking.id);
    expect(row).toMatchObject({ time: '11:00', state: 'checked_in' });
    expect((await collect(t, booking.id)).json()).toMatchObject({ status: 'collected' });
  });

  it('says when the site is closed that day', async () => {
    const day = await dayOf(site.id, SUNDAY);
    expect(day).toMatchObject({ open: false, hours: null, appointments: [], counts: { booked: 0 } });
  });
});

describe("Manage Donations' bookings", () => {
  it('are listed by day, then by the time of their slot, not in the order they were booked', async () => {
    const site = await createSite({ name: 'Time order' });
    const FRIDAY = '2026-03-13';
    const booked: Record<string, number> = {};
    for (const slot of ['12:30', '12:45', '09:45']) {
      const response = await bookAt(await createDonor(t), site.id, FRIDAY, slot);
      expect(response.statusCode, response.body).toBe(201);
      booked[slot] = response.json<Donation>().id;
    }
    const earlier = (await bookAt(await createDonor(t), site.id, '2026-03-12', '15:00')).json<Donation>().id;
    const list = await get('/api/admin/donations?status=pending&pageSize=100', admin);
    const order = list.json<{ items: Donation[] }>().items.map((item) => item.id).filter((id) => [earlier, ...Object.values(booked)].includes(id));
    expect(order).toEqual([earlier, booked['09:45'], booked['12:30'], booked['12:45']]);
  });
});

describe('no-shows (the daily run)', () => {
  it("marks a booking whose day passed as a no-show, tells the donor, and no longer blocks their next booking; today's bookings stay", async () => {
    await deactivateAllSites();
    const site = await createSite();
    const donor = await createDonor(t);
    const todayDonor = await createDonor(t);
    const missed = (await bookAt(donor, site.id, TUESDAY, '14:00')).json<Donation>();
    setToday(t, TUESDAY, '07:00:00');
    const todays = (await bookAt(todayDonor, site.id, TUESDAY, '15:00')).json<Donation>();
    const blocked = await bookAt(donor, site.id, '2026-03-12', '09:00');
    expect(blocked.statusCode).toBe(409);

    // The same day: nothing passed yet.
    await runNoShows();
    expect((await get('/api/donations/mine', donor)).json<Donation[]>()[0]).toMatchObject({ id: missed.id, status: 'pending' });

    setToday(t, '2026-03-11', '07:00:00');
    // However long the server was away, the run catches up; running it twice changes nothing more.
    expect(await runNoShows()).toBeGreaterThanOrEqual(2);
    expect(await runNoShows()).toBe(0);
    const history = (await get('/api/donations/mine', donor)).json<Donation[]>();
    expect(history[0]).toMatchObject({ id: missed.id, status: 'no_show' });
    expect((await get('/api/donations/mine', todayDonor)).json<Donation[]>()[0]).toMatchObject({ id: todays.id, status: 'no_show' });
    const summary = (await get('/api/donor/summary', donor)).json<DonorSummary>();
    // Still a booking made (PRODUCT.md 3.2: only a cancelled one is not), neither pending nor decided.
    expect(summary).toMatchObject({ made: 1, pending: 0, approved: 0, rejected: 0 });
    expect(summary.activities[0]!.message).toBe('You missed your appointment of 10 Mar. You can book a new one whenever you like.');
    expect((await bookAt(donor, site.id, '2026-03-12', '09:00')).statusCode).toBe(201);
  });
});

describe('a donor checked in but not yet collected at midnight', () => {
  it('is no no-show: the booking stays due, and staff record the collection the next morning', async () => {
    await deactivateAllSites();
    const site = await createSite();
    const donor = await createDonor(t);
    const late = (await bookAt(donor, site.id, TUESDAY, '15:45')).json<Donation>();
    setToday(t, TUESDAY, '15:40:00');
    expect((await post(`/api/admin/donations/${late.id}/check-in`, admin)).statusCode).toBe(200);

    setToday(t, '2026-03-11', '00:05:00');
    expect(await runNoShows()).toBe(0);
    expect((await get('/api/donations/mine', donor)).json<Donation[]>()[0]).toMatchObject({ id: late.id, status: 'pending' });
    const due = (await get('/api/admin/donations?status=pending&due=true', admin)).json<{ items: { id: number }[] }>();
    expect(due.items.map((item) => item.id)).toContain(late.id);

    setToday(t, '2026-03-11', '08:30:00');
    const collected = await post(`/api/admin/donations/${late.id}/collect`, admin, PASSING_SCREENING);
    expect(collected.statusCode, collected.body).toBe(200);
  });
});

describe('the calendar file (GET /api/donations/:id/calendar.ics)', () => {
  it("gives the slot in the bank's time zone as UTC instants, to its owner only", async () => {
    const { kolkata, site } = await siteInKolkata(`${MONDAY}T02:00:00Z`);
    try {
      const donor = await createDonor(kolkata);
      const other = await createDonor(kolkata);
      const booked = await kolkata.app.inject({
        method: 'POST',
        url: '/api/donations',
        headers: donor.headers,
        payload: donationForm(TUESDAY, { site_id: site.id, slot: '09:15' }),
      });
      const id = booked.json<Donation>().id;
      const file = await kolkata.app.inject({ method: 'GET', url: `/api/donations/${id}/calendar.ics`, headers: donor.headers });
      expect(file.statusCode, file.body).toBe(200);
      expect(file.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(file.headers['content-disposition']).toBe(`attachment; filename="blood-donation-${id}.ics"`);
      // 09:15 in India (UTC+05:30) is 03:45 UTC.
      expect(file.body).toContain('DTSTART:20260310T034500Z');
      expect(file.body).toContain('DTEND:20260310T040000Z');
      expect(file.body).toContain('SUMMARY:Blood donation at Town Hall');
      expect(file.body).toMatch(/LOCATION:Town Hall\\, 1 Main Street\\, Pune/);
      const notYours = await kolkata.app.inject({ method: 'GET', url: `/api/donations/${id}/calendar.ics`, headers: other.headers });
      expect(notYours.statusCode).toBe(403);
      // Moved an hour later, the same event (UID) with a higher SEQUENCE, so a calendar replaces the old time.
      const sequenceOf = (body: string) => Number(/^SEQUENCE:(\d+)\r?$/m.exec(body)?.[1]);
      const uidOf = (body: string) => /^UID:(.*?)\r?$/m.exec(body)?.[1];
      kolkata.clock.set(`${MONDAY}T03:00:00Z`);
      const moved = await kolkata.app.inject({
        method: 'POST',
        url: `/api/donations/${id}/reschedule`,
        headers: donor.headers,
        payload: { date: TUESDAY, site_id: site.id, slot: '10:00' },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const after = await kolkata.app.inject({ method: 'GET', url: `/api/donations/${id}/calendar.ics`, headers: donor.headers });
      expect(after.body).toContain('DTSTART:20260310T043000Z');
      expect(uidOf(after.body)).toBe(uidOf(file.body));
      expect(sequenceOf(after.body)).toBeGreaterThan(sequenceOf(file.body));
    } finally {
      await kolkata.close();
    }
  });

  it('gives an all-day event for a booking by date alone', async () => {
    await deactivateAllSites();
    const donor = await createDonor(t);
    const booked = await bookAt(donor, undefined, TUESDAY, undefined);
    const file = await get(`/api/donations/${booked.json<Donation>().id}/calendar.ics`, donor);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.body).toContain('DTSTART;VALUE=DATE:20260310');
    expect(file.body).toContain('SUMMARY:Blood donation');
  });
});

describe('donors booking and cancelling at the same time', () => {
  it('gives every donor their place while places are free: twenty donors book and cancel ten times each, in parallel', async () => {
    const site = await createSite({ name: 'Busy Centre', capacity: 40 });
    const donors = await Promise.all(Array.from({ length: 20 }, () => createDonor(t, { bloodgroup: 'O+' })));
    const answers: string[] = [];
    await Promise.all(
      donors.map(async (donor) => {
        for (let round = 0; round < 10; round += 1) {
          const booked = await post('/api/donations', donor, donationForm(TUESDAY, { site_id: site.id, slot: '09:00' }));
          answers.push(`book ${booked.statusCode}${booked.statusCode === 201 ? '' : ` ${booked.body}`}`);
          if (booked.statusCode !== 201) continue;
          const cancelled = await post(`/api/donations/${booked.json<Donation>().id}/cancel`, donor);
          answers.push(`cancel ${cancelled.statusCode}${cancelled.statusCode === 200 ? '' : ` ${cancelled.body}`}`);
        }
      }),
    );
    expect(answers.filter((answer) => answer !== 'book 201' && answer !== 'cancel 200')).toEqual([]);
    expect(answers).toHaveLength(400);
    // Nothing is left holding a place.
    expect((await slotsOf(site.id, TUESDAY, donors[0]!)).find((slot) => slot.time === '09:00')?.available).toBe(40);
    await patch(`/api/admin/sites/${site.id}`, admin, { active: false });
  });
});
