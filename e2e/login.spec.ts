import { expect, test } from '@playwright/test';
import {
  E2E_ADMIN,
  expectAccessible,
  expectSignedInHeaderAndLogOut,
  isPhone,
  openSignedIn,
  registerThroughApi,
  uniqueUsername,
} from './support/helpers';

test('the admin signs in on the admin page, sees the dashboard and logs out', async ({ page }) => {
  await page.goto('/admin/adminlogin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
  // The admin has no self-registration: no sign-up link.
  await expect(page.getByRole('link', { name: 'Register here' })).toHaveCount(0);
  await expectAccessible(page, 'admin login');

  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Username is required', { exact: true })).toBeVisible();
  await expect(page.getByText('Password is required', { exact: true })).toBeVisible();

  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel(/^Password/).fill('not-the-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
  await expectAccessible(page, 'admin login with an error');

  await page.getByLabel(/^Password/).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();

  await expect(page).toHaveURL('/admin/admin-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Administrator Dashboard' })).toBeVisible();
  await expect(page.getByText(`Welcome, ${E2E_ADMIN.username}`)).toBeVisible();
  await expectAccessible(page, 'the admin dashboard');

  // The other reading of the spec's admin path.
  await page.goto('/admin-dashboard');
  await expect(page).toHaveURL('/admin/admin-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Administrator Dashboard' })).toBeVisible();

  await expectSignedInHeaderAndLogOut(page, {
    name: E2E_ADMIN.username,
    links: [{ label: 'Dashboard', href: '/admin/admin-dashboard' }],
  });
});

test('a donor who signs in on the patient page gets an error and is not signed in', async ({
  page,
  request,
}, testInfo) => {
  const donor = await registerThroughApi(request, 'donor', uniqueUsername('wrongpage', testInfo));
  await page.goto('/patient/patientlogin');
  await expect(page.getByRole('heading', { level: 1, name: 'Patient Login' })).toBeVisible();
  await expectAccessible(page, 'patient login');

  await page.getByLabel('Username').fill(donor.username);
  await page.getByLabel(/^Password/).fill(donor.password);
  await page.getByRole('button', { name: 'Login' }).click();

  await expect(page.getByRole('alert')).toHaveText(
    'This is a donor account. Please use the Donor Login page to sign in.',
  );
  await expect(page).toHaveURL('/patient/patientlogin');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.goto('/donor/donor-dashboard');
  await expect(page).toHaveURL('/');
});

test('a donor signs in on the donor page and stays signed in after a reload', async ({
  page,
  request,
}, testInfo) => {
  const donor = await registerThroughApi(request, 'donor', uniqueUsername('reload', testInfo), 'Meera');
  await page.goto('/donor/donorlogin');
  await expect(page.getByRole('heading', { level: 1, name: 'Donor Login' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Register here' })).toHaveAttribute(
    'href',
    '/donor/donorsignup',
  );
  await expectAccessible(page, 'donor login');

  await page.getByLabel('Username').fill(donor.username);
  await page.getByLabel(/^Password/).fill('wrong-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password');

  await page.getByLabel(/^Password/).fill(donor.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL('/donor/donor-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Meera' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Meera' })).toBeVisible();
  await expect(page).toHaveURL('/donor/donor-dashboard');
});

test('a patient signs in on the patient page', async ({ page, request }, testInfo) => {
  const patient = await registerThroughApi(request, 'patient', uniqueUsername('patlogin', testInfo), 'Kiran');
  await page.goto('/patient/patientlogin');
  await page.getByLabel('Username').fill(patient.username);
  await page.getByLabel(/^Password/).fill(patient.password);
  await page.getByRole('button', { name: 'Login' }).click();

  await expect(page).toHaveURL('/patient/patient-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Kiran' })).toBeVisible();
});

test('a stored token the server refuses is dropped without a word', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => {
    localStorage.setItem('token', 'not-a-real-token');
    localStorage.setItem('userType', 'donor');
    localStorage.setItem('userId', '1');
  });
  await page.goto('/donor/donor-dashboard');

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Give Blood, Give Life' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('the session is shown in the header right after signing in', async ({ page, request }, testInfo) => {
  const patient = await registerThroughApi(request, 'patient', uniqueUsername('header', testInfo), 'Noor');
  await openSignedIn(page, patient, '/patient/patient-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Noor' })).toBeVisible();
  if (!isPhone(page)) {
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Noor' }),
    ).toBeVisible();
  }
});
