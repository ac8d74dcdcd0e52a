import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ELIGIBILITY_STATEMENT } from '@bloodbank/shared/constants';
import { PASSWORD_RESET_MESSAGES } from '@bloodbank/shared/notifications';
import { dayFromToday, tokenFor } from './support/admin-helpers';
import {
  E2E_ADMIN,
  expectAccessible,
  expectScreenShown,
  isPhone,
  openNavigation,
  openSignedIn,
  registerThroughApi,
  uniqueUsername,
} from './support/helpers';

/**
 * Notifications and messages (PRODUCT.md 3.8) in the browser: the header's bell counts a booking
 * and marks all read; a forgotten password is reset through the e-mailed link (read from the e2e
 * server's outbox) and the new one signs in; a donor's e-mail and call-out switches; an admin
 * calls out a group on the Call-outs screen. Every screen is checked with axe at the project's width.
 *
 * Each test makes its own accounts; the booking is cancelled at the end, so no other spec sees it.
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The header's bell, named by its unread count. */
const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

/**
 * The reset link of the newest e-mail to `address` in the e2e server's outbox. The server's job
 * worker writes it a moment after the request is answered, so the outbox is polled. The body is
 * quoted-printable: soft line breaks (`=` at a line's end) are joined and `=3D` is `=`.
 */
async function resetLinkFor(address: string): Promise<string> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  const outbox = path.join(dataDir, 'outbox');
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const names = (await fs.readdir(outbox).catch(() => [] as string[]))
          .filter((name) => name.endsWith('.eml'))
          .sort()
          .reverse();
        for (const name of names) {
          const raw = await fs.readFile(path.join(outbox, name), 'utf8');
          const text = raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
          if (!text.includes(address)) continue;
          const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
          if (match) {
            link = `/reset-password?token=${match[1]}`;
            return true;
          }
        }
        return false;
      },
      { message: `a reset e-mail to ${address} in ${outbox}`, timeout: 15_000 },
    )
    .toBe(true);
  return link!;
}

async function cancelPendingBookings(
  request: APIRequestContext,
  credentials: { username: string; password: string },
) {
  const token = await tokenFor(request, credentials);
  const mine = await request.get('/api/donations/mine', { headers: bearer(token) });
  expect(mine.status()).toBe(200);
  for (const donation of (await mine.json()) as { id: number; status: string }[]) {
    if (donation.status !== 'pending') continue;
    const cancelled = await request.post(`/api/donations/${donation.id}/cancel`, { headers: bearer(token) });
    expect(cancelled.status(), await cancelled.text()).toBe(200);
  }
}

test('a donor books, the bell counts the confirmation, and marking all read clears the count', async ({
  page,
  request,
}, testInfo) => {
  test.slow();
  const donor = await registerThroughApi(request, 'donor', uniqueUsername('bell', testInfo), 'Bela');
  try {
    await openSignedIn(page, donor, '/donor/donate');
    await expect(page.getByRole('heading', { level: 1, name: 'Donate Blood' })).toBeVisible();
    await expect(bell(page)).toHaveAccessibleName('Notifications');

    const form = page.getByRole('form', { name: 'Donate Blood' });
    await form.getByRole('spinbutton', { name: 'Number of Units' }).fill('1');
    await form.getByRole('textbox', { name: 'Donation Date', exact: true }).fill(dayFromToday(1));
    await form.getByRole('combobox', { name: 'Health Condition' }).selectOption('None');
    await form.getByRole('checkbox', { name: ELIGIBILITY_STATEMENT }).check();
    await form.getByRole('button', { name: 'Submit Donation Request' }).click();
    await expect(page.getByText(/has been submitted successfully/)).toBeVisible();

    // The booking's confirmation: the count on the bell goes to 1 without a reload.
    await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
    await expect(page.getByRole('banner').getByText('1', { exact: true })).toBeVisible();

    await bell(page).click();
    const popover = page.getByRole('dialog');
    await expect(popover.getByRole('button', { name: /^Unread: Your donation is booked/ })).toBeVisible();
    await expect(popover.getByText(/^Thank you! Your donation is booked for/)).toBeVisible();
    await expect(popover.getByText('just now')).toBeVisible();
    await expectAccessible(page, 'the bell open');

    await popover.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(bell(page)).toHaveAccessibleName('Notifications');
    await expect(page.getByRole('banner').getByText('1', { exact: true })).toHaveCount(0);
    await expect(popover.getByText('Your donation is booked', { exact: true })).toBeVisible();
    await expect(popover.getByText(/^Unread:/)).toHaveCount(0);

    // The whole list, from the bell's "See all".
    await popover.getByRole('link', { name: 'See all' }).click();
    await expect(page).toHaveURL('/notifications');
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    await expect(page.getByText('You are all caught up. Newest first.')).toBeVisible();
    await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(1);
    await expect(page.getByRole('main').getByRole('listitem')).toContainText('Your donation is booked');
    await expect(page.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    await expectAccessible(page, 'the notifications page');
  } finally {
    await cancelPendingBookings(request, donor);
  }
});

test('a forgotten password is reset through the e-mailed link, and the new one signs in', async ({
  page,
  request,
}, testInfo) => {
  test.slow();
  const donor = await registerThroughApi(request, 'donor', uniqueUsername('reset', testInfo), 'Rina');

  await page.goto('/donor/donorlogin');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL('/forgot-password?as=donor');
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Forgot password' });
  await form.getByRole('button', { name: 'Send reset link' }).click();
  await expect(form.getByText(PASSWORD_RESET_MESSAGES.usernameOrEmail)).toBeVisible();
  await expectAccessible(page, 'the forgot password page with an error');

  await form.getByRole('textbox', { name: 'Username or e-mail' }).fill(donor.username);
  await form.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toHaveText(PASSWORD_RESET_MESSAGES.requested);
  await expect(page.getByRole('link', { name: 'Back to Donor Login' })).toHaveAttribute(
    'href',
    '/donor/donorlogin',
  );
  await expectAccessible(page, 'the forgot password answer');

  const link = await resetLinkFor(`${donor.username}@example.com`);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
  const reset = page.getByRole('form', { name: 'Set a new password' });
  await reset.getByLabel(/^New password/).fill('brand-new-pass');
  await reset.getByLabel(/^Confirm new password/).fill('brand-new-typo');
  await reset.getByRole('button', { name: 'Set new password' }).click();
  await expect(reset.getByText('Passwords do not match')).toBeVisible();
  await expectAccessible(page, 'the reset password page with an error');

  await reset.getByLabel(/^Confirm new password/).fill('brand-new-pass');
  await reset.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password was changed.');
  await expectAccessible(page, 'the password changed');

  // The link worked once.
  await page.goto(link);
  await page.getByLabel(/^New password/).fill('another-pass');
  await page.getByLabel(/^Confirm new password/).fill('another-pass');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toHaveText(PASSWORD_RESET_MESSAGES.invalidToken);
  await expect(page.getByRole('link', { name: 'Ask for a new reset link' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  await expectAccessible(page, 'the used reset link');

  // The old password no longer signs in; the new one does.
  await page.goto('/donor/donorlogin');
  await page.getByLabel('Username').fill(donor.username);
  await page.getByLabel(/^Password/).fill(donor.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
  await page.getByLabel(/^Password/).fill('brand-new-pass');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL('/donor/donor-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Rina' })).toBeVisible();
});

test('a donor turns e-mails off on the profile page, and the choice stays', async ({
  page,
  request,
}, testInfo) => {
  const donor = await registerThroughApi(request, 'donor', uniqueUsername('prefs', testInfo), 'Priya');
  await openSignedIn(page, donor, '/donor/donor-dashboard');
  await expectScreenShown(page);

  // The profile, from the user menu (the burger menu on a phone).
  if (isPhone(page)) {
    const navigation = await openNavigation(page);
    await navigation.getByRole('link', { name: 'Profile' }).click();
  } else {
    await page.getByRole('button', { name: 'Priya', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
  }
  await expect(page).toHaveURL('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
  await expect(page.getByText(`${donor.username}@example.com`, { exact: true })).toBeVisible();

  const email = page.getByRole('switch', { name: 'E-mail me these notifications' });
  const callouts = page.getByRole('switch', { name: 'Tell me when my blood group is needed (call-outs)' });
  await expect(email).toBeChecked();
  await expect(callouts).toBeChecked();
  await expectAccessible(page, 'the profile page');

  await email.click();
  await expect(
    page.getByText('Saved. You will no longer get e-mails; the bell keeps every message.'),
  ).toBeVisible();
  await expect(email).not.toBeChecked();
  await expectAccessible(page, 'the profile page, saved');

  await page.reload();
  await expect(page.getByRole('switch', { name: 'E-mail me these notifications' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: /call-outs/ })).toBeChecked();
});

test('a donor changes their password on the profile: this device stays signed in, another is signed out', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const donor = await registerThroughApi(request, 'donor', uniqueUsername('newpass', testInfo), 'Kiran');
  // The same account open on a second device.
  const otherDevice = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const otherPage = await otherDevice.newPage();
  await openSignedIn(otherPage, donor, '/donor/donor-dashboard');
  await expectScreenShown(otherPage);

  await openSignedIn(page, donor, '/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
  await page.getByRole('button', { name: 'Change Password' }).click();
  const form = page.getByRole('form', { name: 'Change your password' });
  await form.getByLabel('Current Password').fill(donor.password);
  await form.getByLabel(/^New Password/).fill('a-new-secret-9');
  await form.getByLabel('Confirm New Password').fill('a-new-secret-8');
  await form.getByRole('button', { name: 'Save Password' }).click();
  await expect(form.getByText('Passwords do not match')).toBeVisible();
  await expectAccessible(page, 'the password form with an error');
  await form.getByLabel('Confirm New Password').fill('a-new-secret-9');
  await form.getByRole('button', { name: 'Save Password' }).click();
  await expect(
    page.getByText('Saved. Your password is changed, and every other device was signed out.'),
  ).toBeVisible();

  // This device is still signed in after a reload; the other one is not.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
  await otherPage.reload();
  await expect(otherPage).toHaveURL('/');
  await expect.poll(() => otherPage.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await otherDevice.close();

  // Only the new password signs in now.
  expect(
    (
      await request.post('/api/auth/token', { form: { username: donor.username, password: donor.password } })
    ).status(),
  ).toBe(401);
  expect(
    (
      await request.post('/api/auth/token', {
        form: { username: donor.username, password: 'a-new-secret-9' },
      })
    ).status(),
  ).toBe(200);
});

test('an admin calls out a group on the Call-outs screen and sees the call-out listed', async ({ page }) => {
  await openSignedIn(page, E2E_ADMIN, '/admin/admin-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Administrator Dashboard' })).toBeVisible();

  // Reachable from the burger menu on a phone, from the admin navigation on a desktop.
  if (isPhone(page)) {
    const navigation = await openNavigation(page);
    await navigation
      .getByRole('group', { name: 'Administration' })
      .getByRole('link', { name: 'Call-outs' })
      .click();
  } else {
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Call-outs' })
      .click();
  }
  await expect(page).toHaveURL('/admin-callouts');
  await expect(page.getByRole('heading', { level: 1, name: 'Call-outs' })).toBeVisible();
  await expect(page.getByTestId('page-loader')).toHaveCount(0);
  await expectAccessible(page, 'the call-outs screen');

  const form = page.getByRole('form', { name: 'Call out donors' });
  await form.getByRole('combobox', { name: 'Blood group needed' }).selectOption('AB-');
  await form.getByRole('button', { name: 'Call out donors' }).click();
  const dialog = page.getByRole('dialog', { name: 'Call out donors for AB-?' });
  await expect(dialog).toContainText('This messages every eligible donor whose blood can go to AB-');
  await expectAccessible(page, 'the call-out dialog');
  await dialog.getByRole('button', { name: 'Send call-out' }).click();

  const result = form.getByRole('status');
  await expect(result).toHaveText(/^(No donor was|1 donor was|\d+ donors were) told that AB- is needed\./);
  const told = /^(\d+)/.exec((await result.textContent()) ?? '')?.[1] ?? '0';

  // The newest row: this call-out, by staff, with as many told as the answer said.
  // (The first row with cells: on a phone the table's header row is not shown, so counting rows would skip one.)
  const newest = page
    .getByRole('table', { name: 'Call-outs' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') })
    .first();
  await expect(newest).toContainText('AB-');
  await expect(newest).toContainText(`Staff (${E2E_ADMIN.username})`);
  await expect(newest.getByRole('cell').nth(3)).toHaveText(new RegExp(`${told}$`));
  await expect(newest.getByRole('cell').nth(4)).toHaveText(/0$/);
  await expectAccessible(page, 'the call-outs screen with a result');
});
