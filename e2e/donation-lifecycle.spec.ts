import fs from 'node:fs';
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { ELIGIBILITY_STATEMENT, MESSAGES } from '@bloodbank/shared/constants';
import { dayFromToday, donate, registerPerson, type Person } from './support/admin-helpers';
import { E2E_ADMIN, expectAccessible, isPhone, openSignedIn, uniqueUsername } from './support/helpers';

/**
 * PRODUCT.md 3.2, 3.4 and 3.7 in the browser: a donor books, staff record the collection and the
 * test results, and the donor sees the reward arrive and the donation released; a failed screening
 * defers a second donor. Every new dialog and screen is checked with axe (at 1280 and 375 px, one
 * project each) and photographed for review.
 */

const SHOTS = process.env.LIFECYCLE_SHOTS_DIR ?? '/tmp/lifecycle-shots';

async function shoot(page: Page, testInfo: TestInfo, name: string, target?: Locator): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const path = `${SHOTS}/${name}-${page.viewportSize()?.width ?? testInfo.project.name}.png`;
  if (target) await target.screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
}

/** Nothing wider than the screen: tables scroll inside their own box, never the page (375 px). */
async function expectNoPageOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `the page is ${overflow}px wider than the screen`).toBeLessThanOrEqual(0);
}

/** Waits until no list on the screen is loading any more. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('progressbar').or(page.getByText(/^Loading/))).toHaveCount(0);
}

/** Fills the Record Collection dialog's four measurements (five fields). */
async function fillScreening(
  dialog: Locator,
  values: { hb: string; weight: string; systolic: string; diastolic: string; pulse: string },
) {
  await dialog.getByLabel(/Haemoglobin/).fill(values.hb);
  await dialog.getByLabel(/Weight/).fill(values.weight);
  await dialog.getByLabel(/systolic/).fill(values.systolic);
  await dialog.getByLabel(/diastolic/).fill(values.diastolic);
  await dialog.getByLabel(/Pulse/).fill(values.pulse);
}

async function openRecordCollection(page: Page, donationId: number, donor: Person): Promise<Locator> {
  await page.goto('/admin-donation');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Donations' })).toBeVisible();
  const due = page.getByRole('region', { name: 'Bookings due today' });
  const row = due.getByRole('row').filter({ hasText: donor.username });
  await expect(row).toHaveCount(1);
  await row
    .getByRole('button', { name: `Record collection of donation #${donationId} from ${donor.name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Record collection: donation #${donationId}` });
  // The thresholds come from the server and stand beside their fields.
  await expect(dialog.getByText('To donate: at least 12.5 g/dL')).toBeVisible();
  return dialog;
}

test('a booking is collected, tested and released, and the donor sees the reward arrive', async ({
  page,
  request,
  browser,
}, testInfo) => {
  // Three people, two dialogs and six screens, each checked with axe.
  test.slow();
  const donor = await registerPerson(request, 'donor', uniqueUsername('life-ok', testInfo), 'B+', 'Lina');

  // The donor books for today through the form; the reward comes at collection.
  await openSignedIn(page, donor, '/donor/donate');
  const form = page.getByRole('form', { name: 'Donate Blood' });
  await form.getByRole('textbox', { name: 'Donation Date', exact: true }).fill(dayFromToday(0));
  await form.getByRole('combobox', { name: 'Health Condition' }).selectOption('Diabetes');
  await form.getByRole('checkbox', { name: ELIGIBILITY_STATEMENT }).check();
  await form.getByRole('button', { name: 'Submit Donation Request' }).click();
  await expect(page.getByText(MESSAGES.pointsAtCollection)).toBeVisible();

  await page.goto('/donor/donor-dashboard');
  await expect(page.getByTestId('latest-booking-state')).toHaveText(/^Booked for \d{1,2} \w{3}$/);
  await expect(page.getByRole('button', { name: 'Cancel Booking' })).toBeVisible();
  await expectAccessible(page, 'the donor dashboard with a booking');
  await shoot(page, testInfo, 'donor-dashboard-booked');
  const mine = (await (
    await page.request.get('/api/donations/mine', {
      headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}` },
    })
  ).json()) as { id: number }[];
  const donationId = mine[0]!.id;

  // Staff: the booking is due today, with the declared health condition in plain sight.
  // Staff work in a browser of their own (the same width; axe needs a context, not a bare page).
  const staffBrowser = await browser.newContext();
  const staff = await staffBrowser.newPage();
  await openSignedIn(staff, E2E_ADMIN, '/admin-donation');
  await expect(staff.getByRole('heading', { level: 1, name: 'Manage Donations' })).toBeVisible();
  const dueRow = staff
    .getByRole('region', { name: 'Bookings due today' })
    .getByRole('row')
    .filter({ hasText: donor.username });
  await expect(dueRow).toContainText('Diabetes');
  await settled(staff);
  await expectAccessible(staff, 'Manage Donations');
  await expectNoPageOverflow(staff);
  await shoot(staff, testInfo, 'manage-donations');

  // Record Collection: values that pass.
  const collection = await openRecordCollection(staff, donationId, donor);
  await collection.getByRole('button', { name: 'Record collection' }).click();
  await expect(collection.getByText('Haemoglobin is required')).toBeVisible();
  await fillScreening(collection, {
    hb: '13.6',
    weight: '64',
    systolic: '118',
    diastolic: '76',
    pulse: '70',
  });
  await expect(collection.getByTestId('screening-preview')).toContainText(
    'Every measurement meets its threshold.',
  );
  await expectAccessible(staff, 'the Record Collection dialog');
  await shoot(staff, testInfo, 'record-collection-dialog', collection);
  await collection.getByRole('button', { name: 'Record collection' }).click();
  await expect(collection).toBeHidden();
  await expect(staff.getByText(`1 unit of B+ from ${donor.name} is in testing.`)).toBeVisible();

  // Manage Blood: the unit is in testing, apart from stock.
  await staff.goto('/admin-blood');
  const held = staff.getByRole('region', { name: 'In Testing and On Hold' });
  await expect(held.getByRole('row').filter({ hasText: `Donation #${donationId}` })).toContainText(
    'In testing',
  );
  await settled(staff);
  await expectAccessible(staff, 'Manage Blood with units in testing');
  await expectNoPageOverflow(staff);
  await shoot(staff, testInfo, 'manage-blood-in-testing', held);

  // The donor: the reward is credited at collection and arrives once, with the donation in testing.
  await page.goto('/donor/donor-dashboard');
  const modal = page.getByRole('dialog', { name: 'Achievement Unlocked!' });
  await expect(modal.getByRole('heading', { name: 'First Time Hero' })).toBeVisible();
  await expectAccessible(page, 'the Achievement Unlocked modal on the dashboard');
  await modal.getByRole('button', { name: 'Awesome!' }).click();
  await expect(modal).toBeHidden();
  const rewards = page.getByRole('region', { name: 'Blood Hero Rewards' });
  await expect(rewards.getByTestId('reward-points')).toHaveText('+100 points');
  await expect(rewards.getByText('Achievement Unlocked: First Time Hero')).toBeVisible();
  await expect(page.getByTestId('latest-booking-state')).toHaveText('Collected, in testing');
  await expect(page.getByTestId('counter-approved')).toContainText('1');
  await expectAccessible(page, 'the donor dashboard with rewards');
  await shoot(page, testInfo, 'donor-dashboard-rewards');

  // Record Test Results: nothing chosen for staff; a reactive choice says what would happen.
  await staff.goto('/admin-donation');
  const awaiting = staff.getByRole('region', { name: 'Awaiting test results' });
  await awaiting
    .getByRole('button', { name: `Record test results of donation #${donationId} from ${donor.name}` })
    .click();
  const results = staff.getByRole('dialog', { name: `Record test results: donation #${donationId}` });
  await expect(results.getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(results.getByLabel(/Confirmed blood group/)).toHaveValue('B+');
  const outcome = (test: RegExp) => results.getByRole('radiogroup', { name: test });
  await outcome(/^HIV/).getByRole('radio', { name: 'Negative' }).check();
  await outcome(/^Hepatitis B/)
    .getByRole('radio', { name: 'Negative' })
    .check();
  await outcome(/^Hepatitis C/)
    .getByRole('radio', { name: 'Negative' })
    .check();
  await outcome(/^Syphilis/)
    .getByRole('radio', { name: 'Reactive' })
    .check();
  await expect(results.getByTestId('reactive-warning')).toContainText('The donor is deferred for 365 days');
  await expectAccessible(staff, 'the Record Test Results dialog with a reactive warning');
  await shoot(staff, testInfo, 'record-test-results-reactive', results);
  // On second thought: all negative.
  await outcome(/^Syphilis/)
    .getByRole('radio', { name: 'Negative' })
    .check();
  await expect(results.getByTestId('reactive-warning')).toHaveCount(0);
  await results.getByRole('button', { name: 'Record results' }).click();
  await expect(results).toBeHidden();
  await expect(staff.getByText('1 unit of B+ now available.')).toBeVisible();

  // The dashboard: what awaits staff, and "In testing" beside the stock.
  await staff.goto('/admin/admin-dashboard');
  await expect(staff.getByTestId('bookings-due')).toContainText(/booking/);
  await expect(staff.getByTestId('awaiting-results')).toContainText('awaiting results');
  const inventory = staff.getByRole('table', { name: 'Units per blood group' });
  // A column of its own on a wide screen; on a phone a line under the stock (while any is in testing).
  if (isPhone(staff))
    await expect(inventory.getByRole('columnheader', { name: 'In testing' })).toHaveCount(0);
  else await expect(inventory.getByRole('columnheader', { name: 'In testing' })).toBeVisible();
  await settled(staff);
  await expectAccessible(staff, 'the admin dashboard');
  await expectNoPageOverflow(staff);
  await shoot(
    staff,
    testInfo,
    'admin-dashboard-inventory',
    staff
      .locator('.mantine-Card-root')
      .filter({ has: staff.getByRole('table', { name: 'Units per blood group' }) }),
  );
  await staffBrowser.close();

  // The donor: released, and the reward is not shown again.
  await page.goto('/donor/donor-dashboard');
  await expect(page.getByTestId('latest-booking-state')).toHaveText('Released: thank you');
  await expect(page.getByTestId('donation-history')).toContainText('Released');
  await expect(page.getByRole('region', { name: 'Blood Hero Rewards' })).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectAccessible(page, 'the donor dashboard after release');
  await shoot(page, testInfo, 'donor-dashboard-released');
});

test("a failed screening defers the donor, who sees until when; staff see the deferral on the donor's page", async ({
  page,
  request,
  browser,
}, testInfo) => {
  test.slow();
  const donor = await registerPerson(request, 'donor', uniqueUsername('life-low', testInfo), 'O-', 'Omar');
  const donationId = await donate(request, donor);

  // Staff work in a browser of their own (the same width; axe needs a context, not a bare page).
  const staffBrowser = await browser.newContext();
  const staff = await staffBrowser.newPage();
  await openSignedIn(staff, E2E_ADMIN, '/admin-donation');
  const collection = await openRecordCollection(staff, donationId, donor);
  await fillScreening(collection, {
    hb: '11.8',
    weight: '70',
    systolic: '120',
    diastolic: '80',
    pulse: '72',
  });
  const preview = collection.getByTestId('screening-preview');
  await expect(preview).toContainText('This donor will be deferred for 30 days:');
  await expect(preview).toContainText('Haemoglobin 11.8 g/dL is below 12.5 g/dL.');
  await expectAccessible(staff, 'the Record Collection dialog with a failed screening');
  await shoot(staff, testInfo, 'record-collection-deferred', collection);
  await collection.getByRole('button', { name: 'Record and defer' }).click();
  await expect(collection).toBeHidden();
  await expect(staff.getByText(new RegExp(`${donor.name} is deferred until`))).toBeVisible();

  // The donor's page: the deferral, from the screening.
  await staff.goto('/admin-donor');
  await staff.getByLabel('Search donors').fill(donor.username);
  const row = staff.getByRole('row').filter({ hasText: donor.username });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Details of ${donor.name}` }).click();
  const drawer = staff.getByRole('dialog', { name: `${donor.name} (donor)` });
  const deferrals = drawer.getByRole('region', { name: 'Deferrals' });
  await expect(deferrals.getByRole('listitem').first()).toContainText('Failed screening');
  await expect(deferrals.getByRole('listitem').first()).toContainText(
    'Haemoglobin 11.8 g/dL is below 12.5 g/dL.',
  );
  await expect(deferrals.getByRole('listitem').first()).toContainText('Active');
  await deferrals.scrollIntoViewIfNeeded();
  await expectAccessible(staff, 'the donor drawer with deferrals');
  await shoot(staff, testInfo, 'donor-deferrals', deferrals);

  // Add deferral: the dialog checks its fields.
  await deferrals.getByRole('button', { name: 'Add deferral' }).click();
  const add = staff.getByRole('dialog', { name: `Defer ${donor.name}` });
  await add.getByRole('button', { name: 'Defer donor' }).click();
  await expect(add.getByText('End date is required')).toBeVisible();
  await expect(add.getByText('Reason is required')).toBeVisible();
  await expectAccessible(staff, 'the Add deferral dialog');
  await add.getByRole('button', { name: 'Cancel' }).click();
  await expect(add).toBeHidden();
  await staffBrowser.close();

  // The donor sees until when, never why.
  await openSignedIn(page, donor, '/donor/donor-dashboard');
  await expect(page.getByTestId('latest-booking-state')).toHaveText(/^Deferred until \d{1,2} \w{3} \d{4}$/);
  await expect(page.getByTestId('deferral-notice')).toContainText('Deferred until');
  await expect(page.getByText(/Haemoglobin/)).toHaveCount(0);
  await expect(page.getByTestId('counter-rejected')).toContainText('1');
  await expectAccessible(page, 'the donor dashboard when deferred');
  await expectNoPageOverflow(page);
  await shoot(page, testInfo, 'donor-dashboard-deferred');
});
