import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  adminToken,
  emptyGroup,
  receiveUnits,
  registerPerson,
  requestBlood,
  type Person,
} from './support/admin-helpers';
import {
  E2E_ADMIN,
  expectAccessible,
  expectScreenShown,
  isPhone,
  openNavigation,
  openSignedIn,
  uniqueUsername,
} from './support/helpers';

/**
 * What a new user tripped over (issue 24): boxes that overflow their cards, admin sections out of
 * reach on a phone, dead ends between login and registration, an audit log that read like a
 * database, and a few small things. Every test runs at desktop width and at 375 px.
 */

/** The element's box, which must be on screen. */
async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, 'element has a box').not.toBeNull();
  return found as NonNullable<typeof found>;
}

/** Every given element lies within the container's box (half a pixel for rounding). */
async function expectInside(container: Locator, contents: Locator, what: string) {
  const outer = await box(container);
  const count = await contents.count();
  expect(count, `${what}: something to measure`).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) {
    const inner = await box(contents.nth(index));
    const label = `${what} #${index + 1} (${inner.x}..${inner.x + inner.width}) in ${outer.x}..${outer.x + outer.width}`;
    expect(inner.x, label).toBeGreaterThanOrEqual(outer.x - 0.5);
    expect(inner.x + inner.width, label).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
  }
}

async function idOf(
  page: Page,
  token: string,
  kind: 'donors' | 'patients',
  username: string,
): Promise<number> {
  const response = await page.request.get(`/api/admin/${kind}?search=${encodeURIComponent(username)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { items: { id: number; username: string }[] };
  const found = body.items.find((item) => item.username === username);
  expect(found, `${username} is listed`).toBeDefined();
  return (found as { id: number }).id;
}

test('the stock tables fit their cards: Available Blood Stock and Blood Inventory', async ({
  page,
  request,
}, testInfo) => {
  // Three widths and two screens, each checked with axe.
  test.slow();
  const token = await adminToken(request);
  await receiveUnits(request, token, 'A+', 2);
  // An empty group shows the widest badge of each table: "Not Available" and "Out of stock".
  await emptyGroup(request, token, 'AB-');
  const patient = await registerPerson(
    request,
    'patient',
    uniqueUsername('fit-patient', testInfo),
    'A+',
    'Fiona',
  );

  await openSignedIn(page, patient, '/patient/patient-dashboard');
  const stockCard = page.locator('section[aria-labelledby="stock-title"]');
  await expect(stockCard.getByText('Not Available').first()).toBeVisible();
  // 1280 px was where it overflowed (and 1024 and 1440); a phone is its own project.
  const widths = isPhone(page) ? [375] : [1024, 1280, 1440];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await expectInside(stockCard, stockCard.locator('table'), `the stock table at ${width}px`);
    await expectInside(stockCard, stockCard.locator('td, th'), `a stock table cell at ${width}px`);
    await expectInside(stockCard, stockCard.locator('.mantine-Badge-root'), `a stock badge at ${width}px`);
  }
  await expectAccessible(page, 'the patient dashboard');

  await openSignedIn(page, E2E_ADMIN, '/admin/admin-dashboard');
  const inventoryTable = page.getByRole('table', { name: 'Units per blood group' });
  await expect(inventoryTable.getByText('Out of stock').first()).toBeVisible();
  const inventoryCard = page.locator('.mantine-Card-root').filter({ has: inventoryTable });
  await expectInside(inventoryCard, inventoryTable, 'the inventory table');
  await expectInside(inventoryCard, inventoryTable.locator('.mantine-Badge-root'), 'an inventory badge');
  await expectAccessible(page, 'the admin dashboard');
});

test('every admin section is reachable: in sight in the admin navigation and, on a phone, in the burger menu', async ({
  page,
}) => {
  // Seven screens, and on a phone the burger menu to each of them again.
  test.slow();
  const sections = [
    { link: 'Dashboard', heading: 'Administrator Dashboard' },
    { link: 'Donors', heading: 'Manage Donors' },
    { link: 'Patients', heading: 'Manage Patients' },
    { link: 'Blood', heading: 'Manage Blood' },
    { link: 'Requests', heading: 'Manage Requests' },
    { link: 'Donations', heading: 'Manage Donations' },
    { link: 'Audit Log', heading: 'Audit Log' },
  ];
  await openSignedIn(page, E2E_ADMIN, '/admin-donor');
  await expectScreenShown(page);
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  const adminNav = page.getByRole('navigation', { name: 'Administration' });

  for (const section of sections) {
    const link = adminNav.getByRole('link', { name: new RegExp(`^${section.link}`) });
    // Wholly on screen, not scrolled out of sight in a strip.
    const linkBox = await box(link);
    expect(linkBox.x, `${section.link} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(linkBox.x + linkBox.width, `${section.link} ends on screen`).toBeLessThanOrEqual(viewport.width);
    await link.click();
    await expect(page.getByRole('heading', { level: 1, name: section.heading })).toBeVisible();
  }
  await expectAccessible(page, 'the admin navigation');

  if (isPhone(page)) {
    for (const section of sections.slice(1)) {
      const menu = await openNavigation(page);
      await expect(menu.getByRole('group', { name: 'Administration' })).toBeVisible();
      await menu.getByRole('link', { name: section.link, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: section.heading })).toBeVisible();
    }
    await openNavigation(page);
    await expectAccessible(page, 'the admin burger menu');
  }
});

test('Need Blood? leads to Patient Login, which links to Patient Registration', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Need Blood?' }).click();
  await expect(page).toHaveURL('/patient/patientlogin');
  await expect(page.getByRole('heading', { level: 1, name: 'Patient Login' })).toBeVisible();
  await expectAccessible(page, 'patient login');

  await page.getByRole('link', { name: 'Register here' }).click();
  await expect(page).toHaveURL('/patient/patientsignup');
  await expect(page.getByRole('heading', { level: 1, name: 'Patient Registration' })).toBeVisible();
});

test('a signed-in user who opens a login page is offered their dashboard, or a log-out', async ({
  page,
  request,
}, testInfo) => {
  const donor = await registerPerson(request, 'donor', uniqueUsername('signedin', testInfo), 'O+', 'Selma');
  await openSignedIn(page, donor, '/donor/donor-dashboard');
  await expectScreenShown(page);

  await page.goto('/patient/patientlogin');
  await expect(page.getByText('You are signed in as Selma, a donor.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toHaveCount(0);
  await expectAccessible(page, 'a login page while signed in');
  await page.getByRole('link', { name: 'Go to my dashboard' }).click();
  await expect(page).toHaveURL('/donor/donor-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Selma' })).toBeVisible();

  await page.goto('/admin/adminlogin');
  await page.getByRole('button', { name: 'Log out', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await expect(page.getByLabel('Username')).toBeVisible();
});

test('the audit log reads as sentences with names and local times', async ({ page, request }, testInfo) => {
  const token = await adminToken(request);
  // Both projects share the database: a name of each project's own.
  const firstName = testInfo.project.name === 'mobile' ? 'Audrey' : 'Audra';
  const donor: Person = await registerPerson(
    request,
    'donor',
    uniqueUsername('audited', testInfo),
    'B+',
    firstName,
  );
  const donorId = await idOf(page, token, 'donors', donor.username);
  const deactivated = await request.delete(`/api/admin/donors/${donorId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(deactivated.status(), await deactivated.text()).toBe(200);

  await openSignedIn(page, E2E_ADMIN, '/admin-audit');
  // The time as the browser's own clock reads it, to the minute.
  const sentence = page.getByText(
    new RegExp(`^${E2E_ADMIN.username} deactivated donor ${firstName} Tester at \\d{2}:\\d{2}$`),
  );
  await expect(sentence).toBeVisible();
  const main = page.getByRole('main');
  await expect(main).not.toContainText(`donor #${donorId}`);
  await expect(main).not.toContainText(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  await expect(main).not.toContainText('deactivated at:');
  await expectAccessible(page, 'the audit log');
});

test('a focused field does not look like a field with an error', async ({ page }) => {
  await page.goto('/patient/patientlogin');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Username is required', { exact: true })).toBeVisible();
  const username = page.locator('.mantine-TextInput-input');
  const look = (locator: Locator) =>
    locator.evaluate((element) => {
      const style = getComputedStyle(element);
      return { border: style.borderTopColor, outline: style.outlineStyle, outlineColor: style.outlineColor };
    });
  const errorLook = await look(username);
  await page.getByLabel('Username').fill('someone');
  await page.getByLabel('Username').focus();
  await expect.poll(async () => (await look(username)).outline).toBe('solid');
  expect((await look(username)).outlineColor).not.toBe(errorLook.border);
  await expect.poll(async () => (await look(username)).border).not.toBe(errorLook.border);
  await expectAccessible(page, 'a focused field');
});

test('the home compatibility table is compact and fits the screen', async ({ page }) => {
  await page.goto('/');
  const compatibility = page.locator('section[aria-labelledby="compatibility-title"] table');
  await expect(compatibility).toBeVisible();
  const table = await box(compatibility);
  // Was 1,097 px tall at 375 px with one badge per line.
  expect(table.height).toBeLessThan(isPhone(page) ? 700 : 520);
  expect(table.x + table.width).toBeLessThanOrEqual((page.viewportSize()?.width ?? 1280) + 0.5);
});

test("the donor's next donation comes before the activity feed", async ({ page, request }, testInfo) => {
  const donor = await registerPerson(request, 'donor', uniqueUsername('order', testInfo), 'O+', 'Omar');
  await openSignedIn(page, donor, '/donor/donor-dashboard');
  const nextDonation = page.getByRole('region', { name: 'Next Eligible Donation' });
  const activities = page.getByRole('region', { name: 'Recent Activities' });
  await expect(nextDonation).toBeVisible();
  const nextBox = await box(nextDonation);
  const feedBox = await box(activities);
  // On a phone above it; on a wide screen beside it, on the right.
  if (isPhone(page)) expect(nextBox.y).toBeLessThan(feedBox.y);
  else expect(nextBox.x).toBeGreaterThan(feedBox.x);
});

test('the cancel dialog offers the safe choice first', async ({ page, request }, testInfo) => {
  const patient = await registerPerson(request, 'patient', uniqueUsername('keep', testInfo), 'O+', 'Kira');
  await requestBlood(request, patient, 'O+', 1);
  await openSignedIn(page, patient, '/patient/patient-dashboard');
  await page
    .getByRole('button', { name: /^Cancel request for/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this request?' });
  const keep = await box(dialog.getByRole('button', { name: 'Keep Request' }));
  const cancel = await box(dialog.getByRole('button', { name: 'Yes, Cancel Request' }));
  if (isPhone(page)) expect(keep.y).toBeLessThan(cancel.y);
  else expect(keep.x).toBeLessThan(cancel.x);
  await expectAccessible(page, 'the cancel dialog');
  await dialog.getByRole('button', { name: 'Keep Request' }).click();
  await expect(dialog).toBeHidden();
});
