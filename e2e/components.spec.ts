import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { adminToken, collectAndRelease, donate, registerPerson } from './support/admin-helpers';
import { E2E_ADMIN, expectAccessible, isPhone, openSignedIn, uniqueUsername } from './support/helpers';
import { serverToday, tokenFor } from './support/patient-helpers';
import { addDays } from '@bloodbank/shared/dates';

/**
 * Blood components (issue 21): staff separate a released whole-blood unit into red cells, plasma
 * and platelets; a patient asks for plasma. The browser shares the e2e server's time zone
 * (playwright.config.ts), so the dialog offers platelets exactly when the server accepts them.
 */

/** With E2E_SHOTS_DIR set, a full-page screenshot per screen and width (for review, not compared). */
async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  // A dialog is shown as the user sees it; a screen whole.
  const dialogOpen = (await page.getByRole('dialog').count()) > 0;
  await page.screenshot({
    path: path.join(dir, `${name}-${page.viewportSize()?.width ?? 0}.png`),
    fullPage: !dialogOpen,
  });
}

/** Nothing wider than the window: the page never scrolls sideways (tables scroll inside their cards). */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
}

interface StockRow {
  bloodgroup: string;
  units: number;
  components: { whole_blood: number; red_cells: number; plasma: number; platelets: number };
}

test('staff process a released whole-blood unit into red cells, plasma and platelets', async ({
  page,
  request,
}, testInfo) => {
  test.slow();
  const token = await adminToken(request);
  const donor = await registerPerson(request, 'donor', uniqueUsername('cmp-give', testInfo), 'B+', 'Ravi');
  const donationId = await donate(request, donor, 1);
  const [unitId] = await collectAndRelease(request, token, donationId, 'B+');
  expect(unitId).toBeDefined();

  await openSignedIn(page, E2E_ADMIN, '/admin-blood');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Blood' })).toBeVisible();
  const units = page.getByRole('region', { name: 'Units' });
  await units.getByLabel('Blood Group').selectOption('B+');
  await units.getByLabel('Component').selectOption('whole_blood');
  await expect(page).toHaveURL(/component=whole_blood/);
  const parentRow = units.getByRole('row').filter({ hasText: `#${unitId}` });
  await expect(parentRow).toContainText('Whole blood');
  await expect(parentRow).toContainText('Available');
  await expectAccessible(page, 'Manage Blood filtered by whole blood');

  await parentRow.getByRole('button', { name: `Process unit #${unitId}` }).click();
  const dialog = page.getByRole('dialog', { name: `Process unit #${unitId}` });
  const choices = dialog.getByRole('group', { name: 'Separate into' });
  for (const name of ['Red cells', 'Plasma', 'Platelets']) {
    await expect(choices.getByRole('checkbox', { name })).toBeChecked();
    await expect(choices.getByRole('checkbox', { name })).toBeEnabled();
  }
  // The default shelf lives from today's collection.
  // The shelf lives the server is configured with (its defaults in the e2e run).
  await expect(choices).toContainText('Shelf life 42 days');
  await expect(choices).toContainText('Shelf life 365 days');
  await expect(choices).toContainText('Shelf life 5 days');
  await expectAccessible(page, 'the Process dialog');
  await shot(page, 'process-dialog');

  await dialog.getByRole('button', { name: 'Process unit' }).click();
  const created = dialog.getByRole('table', { name: 'New component units' });
  await expect(created.getByRole('row')).toHaveCount(4);
  await expect(created).toContainText('Red cells');
  await expect(created).toContainText('Plasma');
  await expect(created).toContainText('Platelets');
  await expect(
    dialog.getByRole('heading', { name: `Unit #${unitId} was separated into 3 units` }),
  ).toBeVisible();
  await expectAccessible(page, 'the Process dialog with the new units');
  await shot(page, 'process-result');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // The parent is processed (no longer on the shelf); its three components are.
  await expect(units.getByRole('row').filter({ hasText: `#${unitId}` })).toHaveCount(0);
  await units.getByLabel('Component').selectOption('');
  const children = units.getByRole('row').filter({ hasText: `from unit #${unitId}` });
  await expect(children).toHaveCount(3);
  for (const component of ['Red cells', 'Plasma', 'Platelets']) {
    await expect(children.filter({ hasText: component })).toHaveCount(1);
  }
  await expect(page.getByRole('button', { name: /Show the B\+ units/ })).toContainText('Platelets');
  await expectAccessible(page, 'Manage Blood with components');
  await expectNoSidewaysScroll(page);
  await shot(page, 'manage-blood');

  // Processing twice is refused, with the server's words in the dialog.
  const again = await request.post(`/api/admin/units/${unitId}/process`, {
    headers: { authorization: `Bearer ${token}` },
    data: { components: ['red_cells'] },
  });
  expect(again.status()).toBe(409);

  // The dashboard counts every component in its total.
  await page.goto('/admin/admin-dashboard');
  const inventory = page.getByRole('table', { name: 'Units per blood group' });
  // A column per component on a wide screen; on a phone, each group's components in one cell.
  await expect(inventory.getByRole('columnheader')).toHaveText(
    isPhone(page)
      ? ['Blood Group', 'Stock per component', 'Status']
      : [
          'Blood Group',
          'Whole blood',
          'Red cells',
          'Plasma',
          'Platelets',
          'Expiring in 7 days',
          'In testing',
          'Status',
        ],
  );
  const dashboard = (await (
    await request.get('/api/admin/dashboard', { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { totalBloodUnits: number; inventory: StockRow[] };
  const sum = dashboard.inventory.reduce(
    (total, row) =>
      total +
      row.components.whole_blood +
      row.components.red_cells +
      row.components.plasma +
      row.components.platelets,
    0,
  );
  expect(dashboard.totalBloodUnits).toBe(sum);
  await expect(page.getByTestId('count-Total Blood Units')).toContainText(sum.toLocaleString('en'));
  await expect(page.getByTestId('count-Total Blood Units')).toContainText('All components');
  const bPlus = dashboard.inventory.find((row) => row.bloodgroup === 'B+')!;
  const bPlusRow = page.getByTestId('inventory-B+');
  for (const component of ['whole_blood', 'red_cells', 'plasma', 'platelets'] as const) {
    await expect(bPlusRow.locator(`[data-component="${component}"]`)).toHaveText(
      String(bPlus.components[component]),
    );
  }
  await expectAccessible(page, 'the admin dashboard with components');
  await expectNoSidewaysScroll(page);
  await shot(page, 'admin-dashboard');
});

test('a patient requests plasma and sees it listed with its component', async ({
  page,
  request,
}, testInfo) => {
  const patient = await registerPerson(
    request,
    'patient',
    uniqueUsername('cmp-need', testInfo),
    'A+',
    'Meera',
  );
  const stock = (await (
    await request.get('/api/stock', {
      headers: { authorization: `Bearer ${await tokenFor(request, patient)}` },
    })
  ).json()) as StockRow[];

  await openSignedIn(page, patient, '/patient/patient-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Meera' })).toBeVisible();

  // The stock table agrees with GET /api/stock; the status follows the red-cell units.
  const table = page.getByRole('table', { name: 'Available Blood Stock' });
  await expect(table.getByRole('columnheader')).toHaveText([
    'Blood Group',
    'Units',
    'Status',
    'Plasma',
    'Platelets',
  ]);
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.children, (cell) => (cell.textContent ?? '').trim())),
    );
  expect(rows).toEqual(
    stock.map((entry) => [
      entry.bloodgroup,
      String(entry.units),
      entry.units > 0 ? 'Available' : 'Not Available',
      String(entry.components.plasma),
      String(entry.components.platelets),
    ]),
  );
  await expectAccessible(page, 'the patient stock table');
  await expectNoSidewaysScroll(page);
  await shot(page, 'patient-stock');

  await page.goto('/patient/make-request');
  const form = page.getByRole('form', { name: 'Request Blood' });
  await expect(form.getByLabel('Component')).toHaveValue('red_cells');
  await form.getByLabel('Component').selectOption('plasma');
  // A+ plasma: A and AB donors (the other way round from red cells).
  await expect(
    page.getByRole('list', { name: 'Groups that can give to A+' }).getByRole('listitem'),
  ).toHaveCount(4);
  await expect(page.getByText(/AB plasma can go to anyone/)).toBeVisible();
  await form.getByLabel('Number of Units').fill('1');
  await form.getByLabel('Required Date').fill(addDays(serverToday(), 3));
  await form.getByLabel('Hospital Address').fill('Lake Hospital, Ward 2');
  await form.getByLabel('Reason').fill('Clotting factor replacement');
  await expectAccessible(page, 'the Request Blood form with Component');
  await expectNoSidewaysScroll(page);
  await shot(page, 'request-form');
  await form.getByRole('button', { name: 'Submit Request' }).click();

  await expect(page.getByRole('heading', { level: 2, name: 'Request Submitted' })).toBeVisible();
  await expect(page.getByText(/Your request for 1 unit of A\+ plasma/)).toBeVisible();
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();

  const mine = (await (
    await request.get('/api/requests/mine', {
      headers: { authorization: `Bearer ${await tokenFor(request, patient)}` },
    })
  ).json()) as { id: number; component: string }[];
  expect(mine).toHaveLength(1);
  expect(mine[0]!.component).toBe('plasma');
  const row = page.getByTestId(`request-${mine[0]!.id}`);
  await expect(row).toContainText('Plasma');
  await expect(row).toContainText('Pending');
  await expectAccessible(page, 'the patient dashboard with a plasma request');
  await expectNoSidewaysScroll(page);

  // Staff see the component on Manage Requests.
  await page.context().clearCookies();
  await openSignedIn(page, E2E_ADMIN, '/admin-request');
  const adminRow = page.getByRole('row').filter({ hasText: patient.username });
  await expect(adminRow).toContainText('Plasma');
  await expectAccessible(page, 'Manage Requests with components');
});
