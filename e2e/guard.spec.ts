import { expect, test, type Page } from '@playwright/test';
import {
  E2E_ADMIN,
  expectAccessible,
  expectScreenShown,
  openSignedIn,
  registerThroughApi,
  uniqueUsername,
} from './support/helpers';

const DONOR_PATHS = ['/donor/donor-dashboard', '/donor/donate', '/donor/game'];
const PATIENT_PATHS = ['/patient/patient-dashboard', '/patient/make-request'];
const ADMIN_PATHS = ['/admin/admin-dashboard'];

async function expectRedirect(page: Page, from: string, to: string) {
  await page.goto(from);
  await expect(page, `${from} should lead to ${to}`).toHaveURL(to);
}

test('signed-out visitors are sent to the home page from every protected route', async ({ page }) => {
  for (const path of [...DONOR_PATHS, ...PATIENT_PATHS, ...ADMIN_PATHS, '/admin-dashboard']) {
    await expectRedirect(page, path, '/');
    await expect(page.getByRole('heading', { level: 1, name: 'Give Blood, Give Life' })).toBeVisible();
  }
});

test('unknown paths show the home page', async ({ page }) => {
  for (const path of ['/no-such-page', '/donor/unknown', '/admin-donor-typo/x']) {
    await expectRedirect(page, path, '/');
    await expect(page.getByRole('heading', { level: 1, name: 'Give Blood, Give Life' })).toBeVisible();
  }
});

test('a donor reaches the donor pages and is sent back from the others', async ({
  page,
  request,
}, testInfo) => {
  const donor = await registerThroughApi(request, 'donor', uniqueUsername('guard-donor', testInfo), 'Dev');
  // The game dashboard is reached after donating and is not in the header.
  await openSignedIn(page, donor, '/donor/game');
  await expect(page).toHaveURL('/donor/game');
  await expectScreenShown(page);
  await expectAccessible(page, 'the game dashboard');

  for (const path of [...PATIENT_PATHS, ...ADMIN_PATHS, '/admin-dashboard']) {
    await expectRedirect(page, path, '/donor/donor-dashboard');
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Dev' })).toBeVisible();
});

test('a patient is sent back to the patient dashboard from donor and admin pages', async ({
  page,
  request,
}, testInfo) => {
  const patient = await registerThroughApi(
    request,
    'patient',
    uniqueUsername('guard-patient', testInfo),
    'Pia',
  );
  await openSignedIn(page, patient, '/patient/make-request');
  await expect(page).toHaveURL('/patient/make-request');
  await expectScreenShown(page);

  for (const path of [...DONOR_PATHS, ...ADMIN_PATHS]) {
    await expectRedirect(page, path, '/patient/patient-dashboard');
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Pia' })).toBeVisible();
});

test('the admin is sent back to the admin dashboard from donor and patient pages', async ({ page }) => {
  await openSignedIn(page, E2E_ADMIN, '/admin-dashboard');
  await expect(page).toHaveURL('/admin/admin-dashboard');

  for (const path of [...DONOR_PATHS, ...PATIENT_PATHS]) {
    await expectRedirect(page, path, '/admin/admin-dashboard');
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Administrator Dashboard' })).toBeVisible();
});
