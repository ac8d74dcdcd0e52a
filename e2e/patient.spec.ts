import { expect, test, type Locator, type Page } from '@playwright/test';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import { addDays } from '@bloodbank/shared/dates';
import { expectAccessible, openSignedIn, registerThroughApi, uniqueUsername } from './support/helpers';
import {
  adminToken,
  emptyStock,
  receiveUnits,
  restoreStock,
  serverToday,
  stockByGroup,
  tokenFor,
} from './support/patient-helpers';

const counter = (page: Page, key: 'total' | 'pending' | 'approved' | 'rejected' | 'cancelled') => page.getByTestId(`count-${key}`);

async function expectCounters(
  page: Page,
  expected: { total: number; pending: number; approved: number; rejected: number; cancelled: number },
) {
  await expect(counter(page, 'total')).toHaveText(`Total Requests${expected.total}`);
  await expect(counter(page, 'pending')).toHaveText(`Pending Requests${expected.pending}`);
  await expect(counter(page, 'approved')).toHaveText(`Approved Requests${expected.approved}`);
  await expect(counter(page, 'rejected')).toHaveText(`Rejected Requests${expected.rejected}`);
  await expect(counter(page, 'cancelled')).toHaveText(`Cancelled Requests${expected.cancelled}`);
}

/** Each stock row as [group, units, status]: the spec's columns (plasma and platelets follow, counted apart). */
async function stockRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => Array.from(row.children, (cell) => (cell.textContent ?? '').trim()).slice(0, 3)),
    );
}

test('a patient requests blood, sees it pending, then cancels it after confirming', async ({ page, request }, testInfo) => {
  const patient = await registerThroughApi(request, 'patient', uniqueUsername('patient-req', testInfo), 'Priya');
  await openSignedIn(page, patient, '/patient/patient-dashboard');

  // A new patient: zero everywhere, and a friendly way to the form.
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Priya' })).toBeVisible();
  await expectCounters(page, { total: 0, pending: 0, approved: 0, rejected: 0, cancelled: 0 });
  const myRequests = page.getByRole('region', { name: 'My Requests' });
  await expect(myRequests.getByRole('heading', { name: 'You have not requested blood yet' })).toBeVisible();
  await expectAccessible(page, 'the patient dashboard with no requests');

  await myRequests.getByRole('link', { name: 'Request Blood' }).click();
  await expect(page).toHaveURL('/patient/make-request');
  await expect(page.getByRole('heading', { level: 1, name: 'Request Blood' })).toBeVisible();

  // The patient's own group and doctor are preset (registered as O+ with Dr. Rao).
  const form = page.getByRole('form', { name: 'Request Blood' });
  await expect(form.getByLabel('Blood Group')).toHaveValue('O+');
  await expect(form.getByLabel('Doctor Name')).toHaveValue('Dr. Rao');
  // Beside it, who can give to O+ and how much each has now, as the server counts it.
  const stock = await stockByGroup(request, await tokenFor(request, patient));
  const donors = page.getByRole('list', { name: 'Groups that can give to O+' });
  await expect(donors.getByRole('listitem')).toHaveText([
    `O+${stock['O+']} unit${stock['O+'] === 1 ? '' : 's'}${stock['O+'] > 0 ? 'Available' : 'Not Available'}`,
    `O-${stock['O-']} unit${stock['O-'] === 1 ? '' : 's'}${stock['O-'] > 0 ? 'Available' : 'Not Available'}`,
  ]);
  await expectAccessible(page, 'the Request Blood form');

  // The spec's messages, word for word.
  await form.getByLabel('Number of Units').fill('11');
  await form.getByLabel('Required Date').fill(addDays(serverToday(), -2));
  await form.getByRole('button', { name: 'Submit Request' }).click();
  for (const message of [
    'Maximum 10 units can be requested at once',
    'Date cannot be in the past',
    'Hospital address is required',
    'Reason is required',
  ]) {
    await expect(form.getByText(message, { exact: true })).toBeVisible();
  }
  await expectAccessible(page, 'the Request Blood form with errors');

  const neededBy = addDays(serverToday(), 5);
  await form.getByLabel('Number of Units').fill('2');
  await form.getByLabel('Required Date').fill(neededBy);
  await form.getByLabel('Hospital Address').fill('Green Valley Hospital, Ward 3');
  await form.getByLabel('Reason').fill('Scheduled knee surgery');
  await form.getByRole('button', { name: 'Submit Request' }).click();

  await expect(page.getByRole('heading', { level: 2, name: 'Request Submitted' })).toBeVisible();
  await expectAccessible(page, 'the request success state');
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();

  // Pending in the list and in the counters.
  await expect(page).toHaveURL('/patient/patient-dashboard');
  await expectCounters(page, { total: 1, pending: 1, approved: 0, rejected: 0, cancelled: 0 });
  const mine = (await (
    await request.get('/api/requests/mine', { headers: { authorization: `Bearer ${await tokenFor(request, patient)}` } })
  ).json()) as { id: number }[];
  expect(mine).toHaveLength(1);
  const row = page.getByTestId(`request-${mine[0]!.id}`);
  await expect(row).toContainText('Pending');
  await expect(row).toContainText('Green Valley Hospital, Ward 3');
  await expectAccessible(page, 'the patient dashboard with a pending request');

  // Cancel, after confirming.
  await row.getByRole('button', { name: /^Cancel request for 2 units of O\+/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this request?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'the cancel confirmation');
  await dialog.getByRole('button', { name: 'Yes, Cancel Request' }).click();
  await expect(dialog).toBeHidden();

  await expect(row).toContainText('Cancelled');
  await expect(row.getByRole('button')).toHaveCount(0);
  await expectCounters(page, { total: 1, pending: 0, approved: 0, rejected: 0, cancelled: 1 });
  await expectAccessible(page, 'the patient dashboard with a cancelled request');

  // The server agrees.
  await page.reload();
  await expect(page.getByTestId(`request-${mine[0]!.id}`)).toContainText('Cancelled');
  await expectCounters(page, { total: 1, pending: 0, approved: 0, rejected: 0, cancelled: 1 });
});

test('the stock table shows Not Available on an empty shelf and Available once units are received', async ({
  page,
  request,
}, testInfo) => {
  const admin = await adminToken(request);
  // The database is shared with the other specs: start from an empty shelf, and put it back after.
  const before = await emptyStock(request, admin);
  try {
    const patient = await registerThroughApi(request, 'patient', uniqueUsername('patient-stock', testInfo), 'Sana');
    await openSignedIn(page, patient, '/patient/patient-dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Sana' })).toBeVisible();

    const table = page.getByRole('table', { name: 'Available Blood Stock' });
    await expect(table.getByRole('columnheader')).toHaveText(['Blood Group', 'Units', 'Status', 'Plasma', 'Platelets']);
    await expect(table.locator('tbody tr')).toHaveCount(8);
    expect(await stockRows(table)).toEqual(BLOOD_GROUPS.map((group) => [group, '0', 'Not Available']));
    await expectAccessible(page, 'the stock table with an empty shelf');

    await receiveUnits(request, admin, 'A-', 3);
    await receiveUnits(request, admin, 'AB+', 1);
    await page.reload();

    await expect(table.locator('tbody tr')).toHaveCount(8);
    expect(await stockRows(table)).toEqual(
      BLOOD_GROUPS.map((group) =>
        group === 'A-' ? [group, '3', 'Available'] : group === 'AB+' ? [group, '1', 'Available'] : [group, '0', 'Not Available'],
      ),
    );
    await expectAccessible(page, 'the stock table with units');

    // The form's panel counts the same units: an A+ patient can receive from A- (and O-, empty).
    await page.goto('/patient/make-request');
    await page.getByRole('form', { name: 'Request Blood' }).getByLabel('Blood Group').selectOption('A+');
    await expect(page.getByRole('list', { name: 'Groups that can give to A+' }).getByRole('listitem')).toHaveText([
      'A+0 unitsNot Available',
      'A-3 unitsAvailable',
      'O+0 unitsNot Available',
      'O-0 unitsNot Available',
    ]);
    await expect(page.getByTestId('compatible-total')).toHaveText('3 units of compatible blood in stock now.');
    await expectAccessible(page, 'the Request Blood form with compatible stock');
  } finally {
    await restoreStock(request, admin, before);
  }
});
