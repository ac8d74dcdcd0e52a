import { expect, test, type Page } from '@playwright/test';
import {
  expectAccessible,
  expectSignedInHeaderAndLogOut,
  followHeaderLink,
  registerThroughApi,
  TINY_PNG,
  uniqueUsername,
} from './support/helpers';

const REQUIRED_MESSAGES = [
  'First name is required',
  'Last name is required',
  'Username is required',
  'Email is required',
  'Password is required',
  'Please confirm your password',
  'Blood group is required',
  'Mobile number is required',
  'Address is required',
];

async function fillPersonalAndAccount(page: Page, values: { first: string; username: string }) {
  await page.getByLabel('First Name').fill(values.first);
  await page.getByLabel('Last Name').fill('Tester');
  await page.getByLabel('Email').fill(`${values.username}@example.com`);
  await page.getByLabel('Mobile Number').fill('9876543210');
  await page.getByLabel('Blood Group').selectOption('A-');
  await page.getByLabel('Address').fill('22 Harbour Road');
  await page.getByLabel('Username').fill(values.username);
  await page.getByLabel(/^Password/).fill('secret-pass');
  await page.getByLabel('Confirm Password').fill('secret-pass');
}

test('a donor registers through the form, logs in, sees the greeting and logs out', async ({
  page,
}, testInfo) => {
  const username = uniqueUsername('donor', testInfo);
  await page.goto('/donor/donorsignup');
  await expect(page.getByRole('heading', { level: 1, name: 'Donor Registration' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login here' })).toHaveAttribute('href', '/donor/donorlogin');
  await expectAccessible(page, 'donor registration');

  // A rejected submit shows the spec's messages.
  await page.getByRole('button', { name: 'Register' }).click();
  for (const message of REQUIRED_MESSAGES)
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  await expectAccessible(page, 'donor registration with errors');

  await page.getByLabel('Email').fill('asha@example');
  await page.getByLabel('Mobile Number').fill('987654321');
  await page.getByLabel(/^Password/).fill('12345');
  await page.getByLabel('Confirm Password').fill('54321');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Invalid email address', { exact: true })).toBeVisible();
  await expect(page.getByText('Please enter a valid 10-digit mobile number', { exact: true })).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters', { exact: true })).toBeVisible();
  await expect(page.getByText('Passwords do not match', { exact: true })).toBeVisible();

  // Now valid, with a profile picture.
  await fillPersonalAndAccount(page, { first: 'Asha', username });
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: TINY_PNG });
  await expect(page.getByRole('img', { name: 'Preview of your profile picture' })).toBeVisible();
  await page.getByRole('button', { name: 'Register' }).click();

  await expect(page).toHaveURL('/donor/donorlogin');
  await expect(page.getByRole('status')).toHaveText(
    'Registration successful. Please log in with your new account.',
  );
  await expectAccessible(page, 'donor login after registration');

  await page.getByLabel('Username').fill(username);
  await page.getByLabel(/^Password/).fill('secret-pass');
  await page.getByRole('button', { name: 'Login' }).click();

  await expect(page).toHaveURL('/donor/donor-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Asha' })).toBeVisible();
  await expectAccessible(page, 'the donor dashboard');

  // The picture was stored with the account.
  const hasPicture = await page.evaluate(async () => {
    const response = await fetch('/api/users/me', {
      headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
    });
    return ((await response.json()) as { has_profile_pic: boolean }).has_profile_pic;
  });
  expect(hasPicture).toBe(true);

  await followHeaderLink(page, 'Donate Blood', '/donor/donate');
  await expectAccessible(page, 'donate blood');
  await followHeaderLink(page, 'Dashboard', '/donor/donor-dashboard');

  await expectSignedInHeaderAndLogOut(page, {
    name: 'Asha',
    links: [
      { label: 'Dashboard', href: '/donor/donor-dashboard' },
      { label: 'Donate Blood', href: '/donor/donate' },
    ],
  });

  await page.goto('/donor/donor-dashboard');
  await expect(page).toHaveURL('/');
});

test('a taken username is refused by the server and shown on the field', async ({
  page,
  request,
}, testInfo) => {
  const username = uniqueUsername('taken', testInfo);
  await registerThroughApi(request, 'donor', username);

  await page.goto('/donor/donorsignup');
  await fillPersonalAndAccount(page, { first: 'Second', username: username.toUpperCase() });
  await page.getByRole('button', { name: 'Register' }).click();

  await expect(page.getByRole('alert')).toHaveText('Username already exists');
  const usernameInput = page.getByLabel('Username');
  await expect(usernameInput).toHaveAttribute('aria-invalid', 'true');
  await expect(usernameInput).toBeFocused();
  await expect(page).toHaveURL('/donor/donorsignup');
  await expectAccessible(page, 'donor registration refused by the server');
});

test('a patient registers, is signed in at once and lands on the patient dashboard', async ({
  page,
}, testInfo) => {
  const username = uniqueUsername('patient', testInfo);
  await page.goto('/patient/patientsignup');
  await expect(page.getByRole('heading', { level: 1, name: 'Patient Registration' })).toBeVisible();
  await expectAccessible(page, 'patient registration');

  await page.getByRole('button', { name: 'Register' }).click();
  for (const message of [
    ...REQUIRED_MESSAGES,
    'Age is required',
    'Disease is required',
    'Doctor name is required',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expectAccessible(page, 'patient registration with errors');

  await fillPersonalAndAccount(page, { first: 'Ravi', username });
  await page.getByLabel('Disease').selectOption('Accident');
  await page.getByLabel('Doctor Name').fill('Dr. Mehta');
  await page.getByLabel('Age').fill('0');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Age must be greater than 0', { exact: true })).toBeVisible();
  await page.getByLabel('Age').fill('121');
  await expect(page.getByText('Age must be less than 120', { exact: true })).toBeVisible();

  await page.getByLabel('Age').fill('42');
  await page.getByRole('button', { name: 'Register' }).click();

  await expect(page).toHaveURL('/patient/patient-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ravi' })).toBeVisible();
  await expectAccessible(page, 'the patient dashboard');

  await followHeaderLink(page, 'Request Blood', '/patient/make-request');
  await expectAccessible(page, 'request blood');
  await followHeaderLink(page, 'Dashboard', '/patient/patient-dashboard');

  await expectSignedInHeaderAndLogOut(page, {
    name: 'Ravi',
    links: [
      { label: 'Dashboard', href: '/patient/patient-dashboard' },
      { label: 'Request Blood', href: '/patient/make-request' },
    ],
  });
});
