import { expect, test, type Page } from '@playwright/test';
import { ELIGIBILITY_STATEMENT, MESSAGES } from '@bloodbank/shared/constants';
import { adminToken, dayFromToday } from './support/admin-helpers';
import { expectAccessible, openSignedIn, registerThroughApi, uniqueUsername } from './support/helpers';

/** "13 Jul 2026", as the screens write a calendar date. */
function displayDate(isoDate: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${isoDate}T00:00:00Z`));
}

async function signInThroughLoginForm(page: Page, credentials: { username: string; password: string }) {
  await page.goto('/donor/donorlogin');
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByLabel(/^Password/).fill(credentials.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL('/donor/donor-dashboard');
}

test('a donor books, gets the reward at collection and sees it on the game dashboard, the gallery and the dashboard', async ({
  page,
  request,
}, testInfo) => {
  // One long journey over six screens, each checked with axe.
  test.slow();
  const donor = await registerThroughApi(request, 'donor', uniqueUsername('donor-game', testInfo), 'Dana');
  await signInThroughLoginForm(page, donor);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Dana' })).toBeVisible();

  // The Donate Blood form: the spec's messages on an empty submit.
  await page.goto('/donor/donate');
  await expect(page.getByRole('heading', { level: 1, name: 'Donate Blood' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Donate Blood' });
  await expect(form.getByRole('textbox', { name: 'Blood Group' })).toHaveValue('O+');
  await expect(form.getByRole('spinbutton', { name: 'Number of Units' })).toHaveValue('1');
  await expectAccessible(page, 'the donate form');

  await form.getByRole('button', { name: 'Submit Donation Request' }).click();
  await expect(form.getByText('Donation date is required', { exact: true })).toBeVisible();
  await expect(form.getByText('This field is required', { exact: true })).toBeVisible();
  await expect(form.getByText('You must confirm this statement', { exact: true })).toBeVisible();
  await form.getByRole('spinbutton', { name: 'Number of Units' }).fill('3');
  await form.getByRole('button', { name: 'Submit Donation Request' }).click();
  await expect(form.getByText('Maximum 2 units can be donated at once', { exact: true })).toBeVisible();
  await expectAccessible(page, 'the donate form with errors');

  // A valid booking, for today: the reward comes when the blood bank records the collection.
  const date = dayFromToday(0);
  await form.getByRole('spinbutton', { name: 'Number of Units' }).fill('1');
  await form.getByRole('textbox', { name: 'Donation Date', exact: true }).fill(date);
  await form.getByRole('combobox', { name: 'Health Condition' }).selectOption('None');
  await form.getByRole('checkbox', { name: ELIGIBILITY_STATEMENT }).check();
  // A hurried double-click books once, and the booking is shown as made.
  const posted: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && new URL(sent.url()).pathname === '/api/donations')
      posted.push(sent.url());
  });
  await form.getByRole('button', { name: 'Submit Donation Request' }).dblclick();

  await expect(page.getByText(/has been submitted successfully/)).toBeVisible();
  expect(posted).toHaveLength(1);
  await expect(page.getByText(MESSAGES.pointsAtCollection)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Make Another Donation' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Blood Hero Rewards' })).toHaveCount(0);
  await expectAccessible(page, 'the donation success');

  // Staff record the collection (the admin screens have their own tests).
  const token = await adminToken(request);
  const bearer = { authorization: `Bearer ${token}` };
  const booked = await request.get('/api/admin/donations?status=pending&due=true&pageSize=100', {
    headers: bearer,
  });
  const bookings = (await booked.json()) as { items: { id: number; donor_username: string }[] };
  const donationId = bookings.items.find((item) => item.donor_username === donor.username)?.id;
  expect(donationId).toBeDefined();
  const collected = await request.post(`/api/admin/donations/${donationId}/collect`, {
    headers: bearer,
    data: { haemoglobin_g_dl: 13.5, weight_kg: 70, bp_systolic: 120, bp_diastolic: 80, pulse: 70 },
  });
  expect(collected.status(), await collected.text()).toBe(200);

  // The game dashboard shows what arrived: the rewards panel and the Achievement Unlocked! modal.
  await page.goto('/donor/game');
  const modal = page.getByRole('dialog', { name: 'Achievement Unlocked!' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('heading', { name: 'First Time Hero' })).toBeVisible();
  await expect(modal.getByText('+100 points')).toBeVisible();
  await expectAccessible(page, 'the achievement modal');
  await modal.getByRole('button', { name: 'Awesome!' }).click();
  await expect(modal).toBeHidden();
  const rewards = page.getByRole('region', { name: 'Blood Hero Rewards' });
  await expect(rewards.getByTestId('reward-points')).toHaveText('+100 points');
  await expect(rewards.getByText('Achievement Unlocked: First Time Hero')).toBeVisible();
  await expect(rewards.getByText('Level 2 · 200 points in total')).toBeVisible();

  await expect(page.getByRole('heading', { level: 1, name: 'Blood Hero Game Dashboard' })).toBeVisible();
  await expect(page.getByText('Level 2', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('1 donation streak')).toBeVisible();
  await expect(page.getByTestId('level-progress-points')).toHaveText('200 / 300 points');
  await expect(page.getByTestId('tile-points')).toContainText('200');
  await expect(page.getByTestId('tile-donations')).toContainText('1');
  await expect(page.getByTestId('tile-streak')).toContainText('1');
  await expect(
    page.getByRole('region', { name: 'Your Achievements' }).getByText('First Time Hero'),
  ).toBeVisible();
  const ownRow = page
    .getByRole('region', { name: 'Leaderboard' })
    .getByRole('row', { name: /Dana T\. \(You\)/ });
  await expect(ownRow).toBeVisible();
  await expect(ownRow).toHaveAttribute('aria-current', 'true');
  await expect(ownRow).toContainText('200');
  await expectAccessible(page, 'the game dashboard');

  // The celebration is not repeated on reload.
  await page.reload();
  await expect(page.getByTestId('tile-points')).toContainText('200');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Blood Hero Rewards' })).toHaveCount(0);

  // The gallery: earned against greyed.
  await page.goto('/donor/donor-dashboard?tab=achievements');
  await expect(page.getByRole('tab', { name: 'Achievements', selected: true })).toBeVisible();
  await expect(page.getByTestId('gallery-count')).toHaveText('1 of 5 earned');
  const firstHero = page.getByTestId('achievement-first_hero_badge');
  await expect(firstHero).toHaveAttribute('data-earned', 'true');
  await expect(firstHero.getByText('Earned', { exact: true })).toBeVisible();
  for (const icon of ['regular_hero_badge', 'super_hero_badge', 'master_badge', 'streak_badge']) {
    const card = page.getByTestId(`achievement-${icon}`);
    await expect(card).toHaveAttribute('data-earned', 'false');
    await expect(card.getByText('Not earned yet')).toBeVisible();
  }
  await expectAccessible(page, 'the achievements gallery');

  // The Blood Hero Game tab shows the same game.
  await page.getByRole('tab', { name: 'Blood Hero Game' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Blood Hero Game Dashboard' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Dana T\. \(You\)/ })).toBeVisible();
  await expectAccessible(page, 'the game tab');

  // The Dashboard tab counts the donation.
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  await expect(page.getByTestId('counter-made')).toContainText('1');
  await expect(page.getByTestId('counter-pending')).toContainText('0');
  await expect(page.getByTestId('counter-approved')).toContainText('1');
  await expect(page.getByTestId('counter-rejected')).toContainText('0');
  await expect(page.getByTestId('summary-points')).toContainText('200');
  await expect(page.getByTestId('latest-booking-state')).toHaveText('Collected, in testing');
  await expect(page.getByTestId('next-eligible-date')).toHaveText(displayDate(dayFromToday(90)));
  const activities = page.getByRole('region', { name: 'Recent Activities' });
  await expect(activities.getByText('Achievement unlocked: First Time Hero (+100 points).')).toBeVisible();
  await expect(activities.getByText(/You booked a donation of 1 unit for/)).toBeVisible();
  const history = page.getByTestId('donation-history');
  await expect(history).toContainText(displayDate(date));
  await expect(history).toContainText('Collected, in testing');
  await expectAccessible(page, 'the donor dashboard after donating');

  // The next booking waits for the interval; the form says from when.
  await page.goto('/donor/donate');
  await expect(page.getByText(MESSAGES.donateAgainFrom(displayDate(dayFromToday(90))))).toBeVisible();
  await expectAccessible(page, 'the donate form before the next eligible date');
});

test('a new donor creates a game profile from the game dashboard', async ({ page, request }, testInfo) => {
  const donor = await registerThroughApi(request, 'donor', uniqueUsername('donor-new', testInfo), 'Nia');
  await openSignedIn(page, donor, '/donor/donor-dashboard');

  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Nia' })).toBeVisible();
  for (const counter of ['made', 'pending', 'approved', 'rejected']) {
    await expect(page.getByTestId(`counter-${counter}`)).toContainText('0');
  }
  await expect(page.getByTestId('next-eligible-date')).toHaveText('Today');
  await expect(page.getByRole('heading', { name: 'No donations yet' })).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Blood Hero Game' })
      .getByRole('button', { name: 'Create Game Profile' }),
  ).toBeVisible();
  await expectAccessible(page, 'the dashboard of a new donor');

  await page.goto('/donor/game');
  await expect(page.getByRole('heading', { name: 'No game profile' })).toBeVisible();
  await expectAccessible(page, 'the game dashboard without a profile');
  await page.getByRole('button', { name: 'Create Game Profile' }).click();

  await expect(page.getByText('Level 1', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('tile-points')).toContainText('0');
  await expect(page.getByText(/donation streak/)).toHaveCount(0);
  await expect(
    page.getByText('You have not earned any achievements yet. Donate blood to unlock your first one!'),
  ).toBeVisible();
  await expectAccessible(page, 'the game dashboard of a new player');

  await page.goto('/donor/donor-dashboard?tab=achievements');
  await expect(page.getByTestId('gallery-count')).toHaveText('0 of 5 earned');
  await expectAccessible(page, 'the achievements gallery with nothing earned');
});
