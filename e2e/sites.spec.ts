import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
} from '@playwright/test';
import { ELIGIBILITY_STATEMENT } from '@bloodbank/shared/constants';
import { adminToken, dayFromToday, registerPerson, tokenFor, type Person } from './support/admin-helpers';
import {
  E2E_ADMIN,
  expectAccessible,
  isPhone,
  openNavigation,
  openSignedIn,
  uniqueUsername,
} from './support/helpers';

/**
 * Donation sites and appointments (PRODUCT.md 3.6) in the browser: staff add a site through the
 * Sites screen, a donor on a phone books a slot there, staff check the donor in and record the
 * collection from the site's day list; a donor moves a booking and the old place is free again.
 * Sites screen, site form, donate form and Move Booking dialog are checked with axe at the
 * project's width (1280 or 375 px), the donate form at 375 px in both projects.
 *
 * Every active site turns each booking into one at a site, so every test deactivates the sites it
 * left active: the other specs book by date alone.
 */

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface SiteBody {
  name: string;
  address: string;
  hours: Record<string, { open: string; close: string } | null>;
  slot_minutes: number;
  capacity: number;
  closed_dates: string[];
  active: boolean;
}

async function deactivateEverySite(request: APIRequestContext): Promise<void> {
  const token = await adminToken(request);
  const response = await request.get('/api/admin/sites', { headers: bearer(token) });
  expect(response.status()).toBe(200);
  const sites = (await response.json()) as { id: number; active: boolean }[];
  for (const site of sites.filter((candidate) => candidate.active)) {
    const patched = await request.patch(`/api/admin/sites/${site.id}`, {
      headers: bearer(token),
      data: { active: false },
    });
    expect(patched.status(), await patched.text()).toBe(200);
  }
}

test.beforeEach(async ({ request }) => deactivateEverySite(request));
test.afterEach(async ({ request }) => deactivateEverySite(request));

/** A site name no other test (or project) uses. */
function siteName(prefix: string): string {
  return `${prefix} ${Math.random().toString(36).slice(2, 7)}`;
}

/** Nothing wider than the screen: tables turn into cards, never a page scrolling sideways. */
async function expectNoPageOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `the page is ${overflow}px wider than the screen`).toBeLessThanOrEqual(0);
}

async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('page-loader')).toHaveCount(0);
  await expect(page.getByRole('progressbar').or(page.getByText(/^Loading/))).toHaveCount(0);
}

/** Opens Sites and Appointments the way staff do: the admin navigation, or the burger menu on a phone. */
async function openSitesScreen(page: Page): Promise<void> {
  await openSignedIn(page, E2E_ADMIN, '/admin/admin-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Administrator Dashboard' })).toBeVisible();
  if (isPhone(page)) {
    const menu = await openNavigation(page);
    await menu.getByRole('group', { name: 'Administration' }).getByRole('link', { name: 'Sites' }).click();
  } else {
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Sites' })
      .click();
  }
  await expect(page).toHaveURL('/admin-sites');
  await expect(page.getByRole('heading', { level: 1, name: 'Sites and Appointments' })).toBeVisible();
}

/** The donor's own browser, 375 px wide like a phone, whatever the project. */
async function phoneContext(browser: Browser) {
  return browser.newContext({
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
    reducedMotion: 'reduce',
  });
}

async function fillDonateForm(form: Locator, date: string): Promise<void> {
  await form.getByRole('textbox', { name: 'Donation Date', exact: true }).fill(date);
  await form.getByRole('combobox', { name: 'Health Condition' }).selectOption('None');
  await form.getByRole('checkbox', { name: ELIGIBILITY_STATEMENT }).check();
}

/** The texts of a select's options, the placeholder left out. */
async function optionTexts(select: Locator): Promise<string[]> {
  const texts = await select.locator('option').allTextContents();
  return texts.filter((text) => !text.startsWith('Select'));
}

test('staff add a site, a donor books a slot on a phone, and staff collect from the day list', async ({
  page,
  browser,
  request,
}, testInfo) => {
  // Two browsers, a form of seven days, four screens and two dialogs checked with axe.
  test.slow();
  const name = siteName(`Riverside ${testInfo.project.name}`);
  const closedOn = dayFromToday(30);

  // Staff: add the site through its form, open every day around the clock, 5-minute slots for 2.
  await openSitesScreen(page);
  await settled(page);
  await expectAccessible(page, 'the Sites screen');
  await expectNoPageOverflow(page);
  await page.getByRole('button', { name: 'Add site' }).click();
  const form = page.getByRole('form', { name: 'Add site' });
  await form.getByRole('button', { name: 'Add site' }).click();
  await expect(form.getByText('Site name is required')).toBeVisible();
  await expect(form.getByText('Address is required')).toBeVisible();

  await form.getByLabel('Site name').fill(name);
  await form.getByLabel('Address').fill('14 River Road, Ward 3');
  for (const day of WEEKDAYS) {
    const toggle = form.getByRole('switch', { name: day });
    await toggle.check();
    await form.getByLabel(`${day} Opens`).fill('00:00');
    await form.getByLabel(`${day} Closes`).fill('23:59');
  }
  await form.getByLabel(/Slot length/).fill('5');
  await expect(form.getByLabel(/Donors per slot/)).toHaveValue('2');
  await form.getByLabel('Closed date').fill(closedOn);
  await form.getByRole('button', { name: 'Add date' }).click();
  await expect(form.getByRole('list', { name: 'Closed dates' }).getByRole('listitem')).toHaveCount(1);
  await expectAccessible(page, 'the Add site form');
  await form.getByRole('button', { name: 'Add site' }).click();
  await expect(page.getByText(`Donors can now book at ${name}.`)).toBeVisible();
  await expect(form).toBeHidden();

  const siteRow = page
    .getByRole('region', { name: 'Donation sites' })
    .getByRole('row')
    .filter({ hasText: name });
  await expect(siteRow).toContainText('Mon–Sun 00:00–23:59');
  await expect(siteRow).toContainText('Closed on 1 date');
  await expect(siteRow).toContainText('5 min · 2 donors each');
  await expect(siteRow).toContainText('Active');

  // The donor, on a phone: the new site is the only one, so it is chosen; a free time of today.
  const donor = await registerPerson(request, 'donor', uniqueUsername('site-booker', testInfo), 'O+', 'Nila');
  const phone = await phoneContext(browser);
  const donorPage = await phone.newPage();
  await openSignedIn(donorPage, donor, '/donor/donate');
  const donate = donorPage.getByRole('form', { name: 'Donate Blood' });
  const siteSelect = donate.getByRole('combobox', { name: 'Donation Site' });
  await expect(siteSelect.locator('option:checked')).toHaveText(name);
  await expect(donate.getByText('14 River Road, Ward 3')).toBeVisible();
  await expect(donate.getByText('Mon–Sun 00:00–23:59')).toBeVisible();
  await fillDonateForm(donate, dayFromToday(0));
  const timeSelect = donate.getByRole('combobox', { name: 'Time' });
  await expect(timeSelect).toBeEnabled();
  await expect(timeSelect.locator('option').nth(1)).toHaveText(/^\d\d:\d\d \(2 places left\)$/);
  // A time a few slots ahead (15 minutes or more): the first free one may begin, and close, while
  // the form is being checked, and the server then rightly refuses it.
  const freeTimes = await optionTexts(timeSelect);
  const chosen = freeTimes[Math.min(3, freeTimes.length - 1)]!;
  expect(chosen).toMatch(/^\d\d:\d\d \(2 places left\)$/);
  const time = chosen.slice(0, 5);
  await timeSelect.selectOption({ label: chosen });
  await expectAccessible(donorPage, 'the Donate Blood form with a site and its times');
  await expectNoPageOverflow(donorPage);
  await donate.getByRole('button', { name: 'Submit Donation Request' }).click();
  await expect(
    donorPage.getByText(`Come to ${name} at ${time}: staff record your donation there.`),
  ).toBeVisible();
  await expect(donorPage.getByTestId('appointment')).toContainText('14 River Road, Ward 3');
  await expect(donorPage.getByRole('button', { name: 'Add to Calendar' })).toBeVisible();

  // Staff: the booking is on today's day list of the site.
  await page.reload();
  const day = page.getByRole('region', { name: 'Day list' });
  await day.getByLabel('Site').selectOption({ label: name });
  await expect(day.getByLabel('Date')).toHaveValue(dayFromToday(0));
  await expect(day.getByTestId('count-booked')).toHaveText('1Booked');
  await expect(day.getByTestId('count-collected')).toHaveText('0Collected');
  const bookingRow = day.getByRole('row').filter({ hasText: donor.name });
  await expect(bookingRow).toContainText(time);
  await expect(bookingRow).toContainText('O+');
  await expect(bookingRow).toContainText('1 unit');
  await expect(bookingRow).toContainText('Booked');
  await settled(page);
  await expectAccessible(page, 'the Sites screen with a day list');
  await expectNoPageOverflow(page);

  // On paper, for the drive's desk: the day list as a table under its site and date, without the
  // header, the menus, the sites or any button.
  await page.evaluate(() => {
    window.print = () => document.body.setAttribute('data-printed', 'yes');
  });
  await day.getByRole('button', { name: 'Print list' }).click();
  await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes');
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('#root header')).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Administration' })).toBeHidden();
  await expect(page.getByRole('region', { name: 'Donation sites' })).toBeHidden();
  await expect(day.getByLabel('Site')).toBeHidden();
  await expect(day.getByTestId('day-hours')).toContainText(name);
  await expect(day.getByRole('columnheader', { name: 'Time' })).toBeVisible();
  await expect(day.getByRole('columnheader', { name: 'State' })).toBeVisible();
  await expect(bookingRow.getByRole('cell').first()).toHaveText(time);
  await expect(bookingRow.getByRole('button', { name: `Check in ${donor.name} (${time})` })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  await bookingRow.getByRole('button', { name: `Check in ${donor.name} (${time})` }).click();
  await expect(page.getByText(`${donor.name} is checked in for ${time}.`)).toBeVisible();
  await expect(day.getByTestId('count-checked_in')).toHaveText('1Checked in');
  await expect(day.getByTestId('count-booked')).toHaveText('0Booked');
  await expect(bookingRow).toContainText('Checked in');

  await bookingRow.getByRole('button', { name: `Record collection for ${donor.name} (${time})` }).click();
  const dialog = page.getByRole('dialog', { name: /^Record collection: donation #\d+$/ });
  await expect(dialog.getByText('To donate: at least 12.5 g/dL')).toBeVisible();
  await dialog.getByLabel(/Haemoglobin/).fill('13.8');
  await dialog.getByLabel(/Weight/).fill('66');
  await dialog.getByLabel(/systolic/).fill('118');
  await dialog.getByLabel(/diastolic/).fill('76');
  await dialog.getByLabel(/Pulse/).fill('68');
  await expect(dialog.getByTestId('screening-preview')).toContainText(
    'Every measurement meets its threshold.',
  );
  await dialog.getByRole('button', { name: 'Record collection' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`1 unit of O+ from ${donor.name} is in testing.`)).toBeVisible();
  await expect(day.getByTestId('count-collected')).toHaveText('1Collected');
  await expect(day.getByTestId('count-checked_in')).toHaveText('0Checked in');
  await expect(bookingRow).toContainText('Collected');
  await expect(bookingRow.getByRole('button')).toHaveCount(0);

  // The donor's dashboard: the booking is collected.
  await donorPage.goto('/donor/donor-dashboard');
  await expect(donorPage.getByTestId('latest-booking-state')).toHaveText('Collected, in testing');
  await phone.close();
});

test('a donor moves a booking to another time and the old place is free again', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.slow();
  const name = siteName(`Hilltop ${testInfo.project.name}`);
  const everyDay = { open: '08:00', close: '12:00' };
  const site: SiteBody = {
    name,
    address: '2 Hill Street',
    hours: Object.fromEntries(WEEKDAYS.map((day) => [day.toLowerCase(), everyDay])),
    slot_minutes: 15,
    capacity: 1,
    closed_dates: [],
    active: true,
  };
  const created = await request.post('/api/admin/sites', {
    headers: bearer(await adminToken(request)),
    data: site,
  });
  expect(created.status(), await created.text()).toBe(201);
  const tomorrow = dayFromToday(1);

  // Book 08:00 tomorrow at the project's width.
  const donor: Person = await registerPerson(
    request,
    'donor',
    uniqueUsername('site-mover', testInfo),
    'A+',
    'Omar',
  );
  await openSignedIn(page, donor, '/donor/donate');
  const donate = page.getByRole('form', { name: 'Donate Blood' });
  await fillDonateForm(donate, tomorrow);
  const timeSelect = donate.getByRole('combobox', { name: 'Time' });
  // The options after the placeholder, retried until the free times have arrived.
  await expect(timeSelect.locator('option').nth(1)).toHaveText('08:00 (1 place left)');
  await expect(timeSelect.locator('option').nth(2)).toHaveText('08:15 (1 place left)');
  await expectAccessible(page, 'the Donate Blood form with a site and its times');
  await expectNoPageOverflow(page);
  await timeSelect.selectOption({ label: '08:00 (1 place left)' });
  await donate.getByRole('button', { name: 'Submit Donation Request' }).click();
  await expect(page.getByText(`Come to ${name} at 08:00: staff record your donation there.`)).toBeVisible();

  // The dashboard shows where and when.
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  const appointment = page.getByTestId('appointment');
  await expect(appointment).toContainText(name);
  await expect(appointment).toContainText('2 Hill Street');
  await expect(appointment).toContainText('08:00–08:15');
  await expectAccessible(page, 'the donor dashboard with an appointment');
  await expectNoPageOverflow(page);

  // Move it: 08:00 is the donor's own (full, so not offered); 09:00 is free.
  await page.getByRole('button', { name: 'Move Booking' }).click();
  const move = page.getByRole('dialog', { name: 'Move your booking' });
  const moveTime = move.getByRole('combobox', { name: 'Time' });
  await expect(moveTime.locator('option').nth(1)).toHaveText('08:15 (1 place left)');
  expect(await optionTexts(moveTime)).not.toContain('08:00 (1 place left)');
  await expectAccessible(page, 'the Move Booking dialog');
  await moveTime.selectOption({ label: '09:00 (1 place left)' });
  // A hurried double-click moves the booking once.
  const moves: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().endsWith('/reschedule')) moves.push(sent.url());
  });
  await move.getByRole('button', { name: 'Move Booking' }).dblclick();
  await expect(move).toBeHidden();
  await expect(page.getByText(new RegExp(`Your booking is moved to .+ at 09:00, ${name}\\.`))).toBeVisible();
  expect(moves).toHaveLength(1);
  await expect(appointment).toContainText('09:00–09:15');

  // The old place is free again: 08:00 is offered, 09:00 (now the donor's) is not.
  await page.getByRole('button', { name: 'Move Booking' }).click();
  await expect(moveTime.locator('option').nth(1)).toHaveText('08:00 (1 place left)');
  expect(await optionTexts(moveTime)).not.toContain('09:00 (1 place left)');
  await move.getByRole('button', { name: 'Keep Current Booking' }).click();
  await expect(move).toBeHidden();

  // Staff see the booking at its new time on tomorrow's day list.
  const staff = await browser.newContext({ viewport: page.viewportSize()!, reducedMotion: 'reduce' });
  const staffPage = await staff.newPage();
  await openSignedIn(staffPage, E2E_ADMIN, '/admin-sites');
  const day = staffPage.getByRole('region', { name: 'Day list' });
  await day.getByLabel('Site').selectOption({ label: name });
  await day.getByLabel('Date').fill(tomorrow);
  await expect(day.getByTestId('count-booked')).toHaveText('1Booked');
  const row = day.getByRole('row').filter({ hasText: donor.name });
  await expect(row).toContainText('09:00');
  await expect(row).toContainText('Check-in and collection from');
  await staff.close();
});

test('staff close a site on a booked day: the booking is cancelled and the donor is told', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.slow();
  const name = siteName(`Riverside ${testInfo.project.name}`);
  const everyDay = { open: '08:00', close: '12:00' };
  const token = await adminToken(request);
  const created = await request.post('/api/admin/sites', {
    headers: bearer(token),
    data: {
      name,
      address: '5 River Road',
      hours: Object.fromEntries(WEEKDAYS.map((day) => [day.toLowerCase(), everyDay])),
      slot_minutes: 15,
      capacity: 2,
      closed_dates: [],
      active: true,
    } satisfies SiteBody,
  });
  expect(created.status(), await created.text()).toBe(201);
  const siteId = ((await created.json()) as { id: number }).id;
  const tomorrow = dayFromToday(1);
  const donor = await registerPerson(request, 'donor', uniqueUsername('site-closed', testInfo), 'B+', 'Lena');
  const booked = await request.post('/api/donations', {
    headers: bearer(await tokenFor(request, donor)),
    data: { unit: 1, date: tomorrow, disease: 'None', confirmation: true, site_id: siteId, slot: '09:00' },
  });
  expect(booked.status(), await booked.text()).toBe(201);

  // Staff add tomorrow as a closed date: the form says what saving does, the message what it did.
  await openSitesScreen(page);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const form = page.getByRole('form', { name: 'Edit site' });
  await expect(
    form.getByText(
      'Bookings on a closed date, or at hours the site no longer keeps, are cancelled when you save, and their donors are told.',
    ),
  ).toBeVisible();
  await form.getByLabel('Closed date').fill(tomorrow);
  await form.getByRole('button', { name: 'Add date' }).click();
  await expectAccessible(page, 'the site form with a new closed date');
  await form.getByRole('button', { name: 'Save changes' }).click();
  // Before anything is saved, the booking that the closed date cancels, and whose it is.
  const ask = page.getByRole('dialog', { name: 'Cancel 1 booking?' });
  await expect(ask.getByRole('list', { name: 'Bookings that saving cancels' })).toContainText(
    `09:00 · ${donor.name}`,
  );
  await expectAccessible(page, 'the bookings a closed date cancels');
  await ask.getByRole('button', { name: 'Save and cancel 1 booking' }).click();
  await expect(
    page.getByText(
      `${name} was updated. 1 booking at a time it is now closed was cancelled, and its donor told.`,
    ),
  ).toBeVisible();

  // The day list: closed, and nobody is expected.
  const day = page.getByRole('region', { name: 'Day list' });
  await day.getByLabel('Site').selectOption({ label: name });
  await day.getByLabel('Date').fill(tomorrow);
  await expect(day.getByTestId('count-booked')).toHaveText('0Booked');
  await expect(day.getByRole('row').filter({ hasText: donor.name })).toHaveCount(0);

  // The donor, on a phone: told why, and free to book again.
  const phone = await phoneContext(browser);
  const donorPage = await phone.newPage();
  await openSignedIn(donorPage, donor, '/notifications');
  await expect(donorPage.getByText('Your booking is cancelled')).toBeVisible();
  await expect(
    donorPage.getByText(
      new RegExp(
        `Your booking at ${name} \\(5 River Road\\) on .+ at 09:00 is cancelled: the site is closed then\\.`,
      ),
    ),
  ).toBeVisible();
  await donorPage.goto('/donor/donate');
  await expect(donorPage.getByRole('form', { name: 'Donate Blood' })).toBeVisible();
  await phone.close();
});
