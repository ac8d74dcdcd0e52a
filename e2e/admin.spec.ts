import { expect, test, type Page } from '@playwright/test';
import {
  adminToken,
  donate,
  donationsOf,
  emptyGroup,
  receiveUnits,
  registerPerson,
  requestBlood,
  stockOf,
  type BloodGroup,
} from './support/admin-helpers';
import { E2E_ADMIN, expectAccessible, openSignedIn, uniqueUsername } from './support/helpers';

/** The admin area's own navigation (wrapped onto more rows on a phone). */
async function goTo(page: Page, link: string, heading: string) {
  await page
    .getByRole('navigation', { name: 'Administration' })
    .getByRole('link', { name: new RegExp(`^${link}`) })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** The Manage Blood card of a group: "N available". */
function stockCard(page: Page, group: BloodGroup) {
  return page.getByRole('button', { name: new RegExp(`Show the ${group.replace('+', '\\+')} units`) });
}

/** The dashboard's Blood Inventory row of a group. */
function inventoryRow(page: Page, group: BloodGroup) {
  return page
    .getByRole('table', { name: 'Units per blood group' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: group, exact: true }) });
}

/** The group's units of blood on the dashboard: its Whole blood and Red cells columns together. */
async function expectInventoryUnits(page: Page, group: BloodGroup, units: number) {
  const row = inventoryRow(page, group);
  await expect
    .poll(async () => {
      const cells = await Promise.all(
        ['whole_blood', 'red_cells'].map(async (component) =>
          Number(await row.locator(`[data-component="${component}"]`).textContent()),
        ),
      );
      return cells[0]! + cells[1]!;
    })
    .toBe(units);
}

test('an admin collects a donation, records negative results and sees the stock rise', async ({
  page,
  request,
}, testInfo) => {
  const token = await adminToken(request);
  const donor = await registerPerson(request, 'donor', uniqueUsername('adm-give', testInfo), 'AB-', 'Gita');
  const donationId = await donate(request, donor, 2);
  const before = await stockOf(request, token, 'AB-');

  await openSignedIn(page, E2E_ADMIN, '/admin/admin-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Administrator Dashboard' })).toBeVisible();
  await expectInventoryUnits(page, 'AB-', before);
  await goTo(page, 'Blood', 'Manage Blood');
  await expect(stockCard(page, 'AB-')).toContainText(`${before} available`);

  await goTo(page, 'Donations', 'Manage Donations');
  const row = page
    .getByRole('region', { name: 'Bookings due today' })
    .getByRole('row')
    .filter({ hasText: donor.username });
  await expect(row).toContainText('today');
  await expectAccessible(page, 'Manage Donations');
  await row
    .getByRole('button', { name: `Record collection of donation #${donationId} from ${donor.name}` })
    .click();
  const collection = page.getByRole('dialog', { name: `Record collection: donation #${donationId}` });
  await collection.getByLabel(/Haemoglobin/).fill('14');
  await collection.getByLabel(/Weight/).fill('60');
  await collection.getByLabel(/systolic/).fill('120');
  await collection.getByLabel(/diastolic/).fill('80');
  await collection.getByLabel(/Pulse/).fill('70');
  await collection.getByRole('button', { name: 'Record collection' }).click();
  await expect(page.getByText(`2 units of AB- from ${donor.name} are in testing.`)).toBeVisible();

  // In testing: not stock yet.
  await goTo(page, 'Blood', 'Manage Blood');
  await expect(stockCard(page, 'AB-')).toContainText(`${before} available`);
  await expect(stockCard(page, 'AB-')).toContainText('2 in testing');

  await goTo(page, 'Donations', 'Manage Donations');
  await page
    .getByRole('region', { name: 'Awaiting test results' })
    .getByRole('button', { name: `Record test results of donation #${donationId} from ${donor.name}` })
    .click();
  const results = page.getByRole('dialog', { name: `Record test results: donation #${donationId}` });
  for (const test of [/^HIV/, /^Hepatitis B/, /^Hepatitis C/, /^Syphilis/]) {
    await results.getByRole('radiogroup', { name: test }).getByRole('radio', { name: 'Negative' }).check();
  }
  await results.getByRole('button', { name: 'Record results' }).click();
  await expect(page.getByText('2 units of AB- now available.')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'History' }).getByRole('row').filter({ hasText: donor.username }),
  ).toContainText('Released');

  await goTo(page, 'Blood', 'Manage Blood');
  await expect(stockCard(page, 'AB-')).toContainText(`${before + 2} available`);
  await expectAccessible(page, 'Manage Blood');
  await goTo(page, 'Dashboard', 'Administrator Dashboard');
  await expectInventoryUnits(page, 'AB-', before + 2);
  await expectAccessible(page, 'the admin dashboard');
});

test('an admin approves a request and sees the stock fall', async ({ page, request }, testInfo) => {
  const token = await adminToken(request);
  await receiveUnits(request, token, 'A-', 3);
  const patient = await registerPerson(
    request,
    'patient',
    uniqueUsername('adm-need', testInfo),
    'A-',
    'Hema',
  );
  const requestId = await requestBlood(request, patient, 'A-', 2);
  const before = await stockOf(request, token, 'A-');
  expect(before).toBeGreaterThanOrEqual(3);

  await openSignedIn(page, E2E_ADMIN, '/admin/admin-dashboard');
  await expectInventoryUnits(page, 'A-', before);

  await goTo(page, 'Requests', 'Manage Requests');
  const row = page.getByRole('row').filter({ hasText: patient.username });
  await expect(row).toContainText('Pending');
  await expectAccessible(page, 'Manage Requests');
  await row.getByRole('button', { name: `Approve request #${requestId} from ${patient.name}` }).click();
  // Issuing cannot be undone: it is confirmed first.
  const confirm = page.getByRole('dialog', { name: `Approve request #${requestId}` });
  await expect(confirm).toContainText(`2 units of A- red cells will be issued to ${patient.name}`);
  await expectAccessible(page, 'the approval confirmation');
  await confirm.getByRole('button', { name: 'Approve and issue' }).click();
  await expect(
    page.getByText(new RegExp(`^2 units of A- issued to ${patient.name}: Units #\\d+, #\\d+\\.$`)),
  ).toBeVisible();
  await expect(row).toContainText('Approved');
  // The row keeps the bags' numbers after the message has gone.
  await expect(row).toContainText(/Units #\d+, #\d+/);

  await goTo(page, 'Dashboard', 'Administrator Dashboard');
  await expectInventoryUnits(page, 'A-', before - 2);
  await goTo(page, 'Blood', 'Manage Blood');
  await expect(stockCard(page, 'A-')).toContainText(`${before - 2} available`);
});

test('a short group offers the compatible groups, and the admin approves from one', async ({
  page,
  request,
}, testInfo) => {
  const token = await adminToken(request);
  await emptyGroup(request, token, 'B-');
  await receiveUnits(request, token, 'O-', 3);
  const patient = await registerPerson(
    request,
    'patient',
    uniqueUsername('adm-short', testInfo),
    'B-',
    'Ira',
  );
  const requestId = await requestBlood(request, patient, 'B-', 2);
  const universal = await stockOf(request, token, 'O-');

  await openSignedIn(page, E2E_ADMIN, '/admin-request');
  const row = page.getByRole('row').filter({ hasText: patient.username });
  await row.getByRole('button', { name: `Approve request #${requestId} from ${patient.name}` }).click();
  await page
    .getByRole('dialog', { name: `Approve request #${requestId}` })
    .getByRole('button', { name: 'Approve and issue' })
    .click();

  const dialog = page.getByRole('dialog', { name: 'Not enough stock' });
  await expect(dialog.getByRole('alert')).toHaveText(
    'Stock does not have enough blood to approve this request. Only 0 units available.',
  );
  await expect(dialog).toContainText('needs 2 units of B-');
  await expect(dialog).toContainText(`${universal} units available`);
  await expectAccessible(page, 'the short-stock dialog');
  // A double-click approves once, and the admin sees the approval made (not "already decided").
  const approvals: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().endsWith(`/requests/${requestId}/approve`))
      approvals.push(sent.postData() ?? '');
  });
  // Choosing the group first says what it will leave; a double-click on it issues nothing yet.
  await dialog.getByRole('button', { name: 'Approve from O-' }).dblclick();
  const review = dialog.getByRole('group', { name: 'Approve from O-?' });
  await expect(review).toContainText(
    `2 units of O- red cells will be issued to ${patient.name}; O- will have`,
  );
  await expect(review).toBeFocused();
  await expectAccessible(page, 'the short-stock review of a group');
  expect(approvals).toHaveLength(0);
  await review.getByRole('button', { name: 'Issue 2 units of O-' }).dblclick();

  await expect(dialog).toBeHidden();
  await expect(
    page.getByText(new RegExp(`^2 units of O- issued to ${patient.name}: Units #\\d+, #\\d+\\.$`)),
  ).toBeVisible();
  await expect(row).toContainText('Approved');
  await expect(row).toContainText('issued from O-');
  expect(await stockOf(request, token, 'O-')).toBe(universal - 2);
  expect(await stockOf(request, token, 'B-')).toBe(0);
  expect(approvals).toHaveLength(1);
});

test('an admin rejects a donation with a reason that the donor then sees', async ({
  page,
  request,
}, testInfo) => {
  const donor = await registerPerson(request, 'donor', uniqueUsername('adm-no', testInfo), 'O+', 'Jai');
  const donationId = await donate(request, donor, 1, 'High Blood Pressure');
  const reason = 'Blood pressure too high on the day; please book again next month.';

  await openSignedIn(page, E2E_ADMIN, '/admin-donation');
  const due = page
    .getByRole('region', { name: 'Bookings due today' })
    .getByRole('row')
    .filter({ hasText: donor.username });
  // The health condition is in plain sight.
  await expect(due).toContainText('High Blood Pressure');
  await due.getByRole('button', { name: `Reject donation #${donationId} from ${donor.name}` }).click();

  const dialog = page.getByRole('dialog', { name: `Reject donation #${donationId}` });
  await dialog.getByLabel('Reason (optional)').fill(reason);
  await expectAccessible(page, 'the reject dialog');
  await dialog.getByRole('button', { name: 'Reject' }).click();

  await expect(dialog).toBeHidden();
  await expect(due).toHaveCount(0);
  const row = page
    .getByRole('region', { name: 'History' })
    .getByRole('row')
    .filter({ hasText: donor.username });
  await expect(row).toContainText('Rejected');
  await expect(row).toContainText(`Reason: ${reason}`);

  const mine = await donationsOf(request, donor);
  expect(mine.find((donation) => donation.id === donationId)).toMatchObject({
    status: 'rejected',
    rejection_reason: reason,
  });
});

test('an admin edits and deactivates a donor, who then cannot sign in', async ({
  page,
  request,
  browser,
}, testInfo) => {
  const donor = await registerPerson(request, 'donor', uniqueUsername('adm-off', testInfo), 'B+', 'Kavi');

  await openSignedIn(page, E2E_ADMIN, '/admin-donor');
  await page.getByLabel('Search donors').fill(donor.username);
  const row = page.getByRole('row').filter({ hasText: donor.username });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: `Details of ${donor.name}` }).click();
  const drawer = page.getByRole('dialog', { name: `${donor.name} (donor)` });
  await expect(drawer.getByLabel('First Name')).toHaveValue(donor.firstName);
  await drawer.getByLabel('Mobile Number').fill('98765');
  await drawer.getByRole('button', { name: 'Save changes' }).click();
  await expect(drawer.getByText('Please enter a valid 10-digit mobile number')).toBeVisible();
  await expectAccessible(page, 'the donor drawer');
  await drawer.getByLabel('Mobile Number').fill('9123456780');
  await drawer.getByRole('button', { name: 'Save changes' }).click();
  await expect(drawer).toBeHidden();
  await expect(row).toContainText('9123456780');

  await row.getByRole('button', { name: `Deactivate ${donor.name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Deactivate ${donor.name}?` });
  await expect(confirm).toContainText('will no longer be able to sign in');
  await expectAccessible(page, 'the deactivate dialog');
  await confirm.getByRole('button', { name: 'Deactivate donor' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText('Deactivated');
  await expect(row.getByRole('button', { name: /^Deactivate/ })).toHaveCount(0);
  await expectAccessible(page, 'Manage Donors');

  const visitor = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const login = await visitor.newPage();
  await login.goto('/donor/donorlogin');
  await login.getByLabel('Username').fill(donor.username);
  await login.getByLabel(/^Password/).fill(donor.password);
  await login.getByRole('button', { name: 'Login' }).click();
  await expect(login.getByRole('alert')).toHaveText(
    'This account has been deactivated. Please contact the blood bank.',
  );
  await expect(login).toHaveURL('/donor/donorlogin');
  await visitor.close();
});

test('every admin screen is accessible, and the exports download as CSV', async ({ page }) => {
  // Seven screens, each checked with axe, and three downloads: more than 30 s on a busy machine.
  test.slow();
  await openSignedIn(page, E2E_ADMIN, '/admin/admin-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Administrator Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Stock by Blood Group' })).toBeVisible();

  const screens: [string, string][] = [
    ['Donors', 'Manage Donors'],
    ['Patients', 'Manage Patients'],
    ['Blood', 'Manage Blood'],
    ['Requests', 'Manage Requests'],
    ['Donations', 'Manage Donations'],
    ['Audit Log', 'Audit Log'],
    ['Dashboard', 'Administrator Dashboard'],
  ];
  for (const [link, heading] of screens) {
    await goTo(page, link, heading);
    await expect(page.getByRole('progressbar').or(page.getByText(/^Loading/))).toHaveCount(0);
    await expectAccessible(page, heading);
  }

  await goTo(page, 'Audit Log', 'Audit Log');
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: new RegExp(`^${E2E_ADMIN.username} released .+'s donation`) })
      .first(),
  ).toBeVisible();

  for (const [link, heading, name] of [
    ['Donations', 'Manage Donations', 'donations'],
    ['Requests', 'Manage Requests', 'requests'],
    ['Blood', 'Manage Blood', 'units'],
  ] as const) {
    await goTo(page, link, heading);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Export ${name} (CSV)` }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${name}.*\\.csv$`));
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    // The byte order mark first, which tells Excel the file is UTF-8.
    expect((await readFile(path, 'utf8')).split('\n')[0]).toMatch(/^\uFEFFid,/);
  }
});

test("the dashboard's inventory scrolls sideways, not cut, when the reader's text spacing widens it", async ({
  page,
}) => {
  test.skip(page.viewportSize()!.width < 640, 'phones show the inventory one group per line');
  await openSignedIn(page, E2E_ADMIN, '/admin/admin-dashboard');
  const table = page.getByTestId('inventory-table');
  await expect(table).toBeVisible();
  // WCAG 1.4.12: the spacing a reader may set for themselves.
  await page.addStyleTag({
    content:
      '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }',
  });
  // The box that is too narrow for the table must let the reader scroll to the rest of it.
  const clipping = await table.evaluate((element) => {
    for (let box = element.parentElement; box; box = box.parentElement) {
      if (box.scrollWidth > box.clientWidth + 1) return getComputedStyle(box).overflowX;
    }
    return 'nothing too narrow';
  });
  expect(['auto', 'scroll', 'nothing too narrow']).toContain(clipping);
});
