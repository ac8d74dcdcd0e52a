import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openSignedIn, registerThroughApi, uniqueUsername } from './support/helpers';

/**
 * The README's screenshots. Not part of the suite (playwright.config.ts ignores this file unless
 * UPDATE_SCREENSHOTS is set): `npm run build && UPDATE_SCREENSHOTS=1 npx playwright test screenshots --project desktop`
 */
const OUTPUT = path.join(import.meta.dirname, '..', 'docs', 'screenshots');

test('README screenshots', async ({ page, request }, testInfo) => {
  // A few accounts, so the home page's live figures are not all zero.
  for (let index = 0; index < 3; index += 1) {
    await registerThroughApi(request, 'donor', uniqueUsername(`shot-donor${index}`, testInfo));
  }
  await registerThroughApi(request, 'patient', uniqueUsername('shot-patient', testInfo));

  await page.goto('/');
  await expect(page.getByTestId('stat-donors')).toContainText('+');
  await page.screenshot({ path: path.join(OUTPUT, 'home.png'), fullPage: true, animations: 'disabled' });

  const donor = await registerThroughApi(request, 'donor', uniqueUsername('shot-asha', testInfo), 'Asha');
  await openSignedIn(page, donor, '/donor/donor-dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Asha' })).toBeVisible();
  await page.screenshot({ path: path.join(OUTPUT, 'signed-in.png'), animations: 'disabled' });
});
