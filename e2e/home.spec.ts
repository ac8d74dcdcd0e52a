import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { BLOOD_GROUPS, type BloodGroup } from '@bloodbank/shared/blood-groups';
import { SUPPLY_LEVEL_LABELS, type PublicSupply } from '@bloodbank/shared/supply';
import {
  expectAccessible,
  isPhone,
  openNavigation,
  registerThroughApi,
  uniqueUsername,
} from './support/helpers';
import { adminToken, receiveUnits, stockByGroup } from './support/patient-helpers';

interface Stats {
  donors: number;
  patients: number;
  units: number;
  donations: number;
}

/** The home page's "N+" style (nothing yet reads "0"). */
const figure = (value: number) => (value > 0 ? `${value.toLocaleString('en')}+` : '0');

test('the home page has every section of the spec', async ({ page }) => {
  await page.goto('/');
  const main = page.getByRole('main');

  // Hero
  await expect(main.getByRole('heading', { level: 1, name: 'Give Blood, Give Life' })).toBeVisible();
  await expect(main.getByText('One donation can save up to 3 lives', { exact: true })).toBeVisible();
  const hero = main.getByRole('region', { name: 'Give Blood, Give Life' });
  await expect(hero.getByRole('link', { name: 'Become a Donor' })).toHaveAttribute(
    'href',
    '/donor/donorsignup',
  );
  await expect(hero.getByRole('link', { name: 'Register as Patient' })).toHaveAttribute(
    'href',
    '/patient/patientsignup',
  );

  // The three cards
  for (const [title, action, href] of [
    ['Blood Donation', 'Donor Login', '/donor/donorlogin'],
    ['Patient Services', 'Patient Login', '/patient/patientlogin'],
    ['Administration', 'Admin Login', '/admin/adminlogin'],
  ] as const) {
    await expect(main.getByRole('heading', { name: title })).toBeVisible();
    await expect(main.getByRole('link', { name: action })).toHaveAttribute('href', href);
  }

  // Compatibility table, from the shared table
  const table = main.getByRole('table', { name: 'Blood Type Compatibility' });
  await expect(table.getByRole('columnheader')).toHaveText([
    'Blood Type',
    'Can Donate To',
    'Can Receive From',
  ]);
  await expect(table.getByRole('rowheader')).toHaveText(['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-']);
  await expect(table.getByRole('row', { name: /^O-/ }).getByRole('cell').first()).toHaveText(
    'A+A-B+B-AB+AB-O+O-',
  );
  await expect(table.getByRole('row', { name: /^AB\+/ }).getByRole('cell').last()).toHaveText(
    'A+A-B+B-AB+AB-O+O-',
  );

  // Why donate
  await expect(main.getByRole('heading', { name: 'Why Donate Blood?' })).toBeVisible();
  await expect(main.getByRole('link', { name: 'Register to Donate Blood' })).toHaveAttribute(
    'href',
    '/donor/donorsignup',
  );

  // Statistics strip
  await expect(main.getByRole('heading', { name: 'Our Impact in Numbers' })).toBeVisible();
  await expect(main.getByTestId('stat-donors')).toContainText('Donors');

  // Closing call to action
  const cta = main.getByRole('region', { name: 'Ready to Save Lives?' });
  await expect(cta.getByRole('link', { name: 'Become a Donor' })).toHaveAttribute(
    'href',
    '/donor/donorsignup',
  );
  await expect(cta.getByRole('link', { name: 'Need Blood?' })).toHaveAttribute(
    'href',
    '/patient/patientlogin',
  );

  // Footer: three columns and the copyright line
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText('We connect blood donors with patients who need blood.');
  await expect(footer).toContainText('donated blood saves lives');
  await expect(footer.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  await expect(footer.getByRole('link', { name: 'Become a Donor' })).toHaveAttribute(
    'href',
    '/donor/donorsignup',
  );
  await expect(footer.getByRole('link', { name: 'Register as Patient' })).toHaveAttribute(
    'href',
    '/patient/patientsignup',
  );
  await expect(footer.getByRole('link', { name: /\+1 \(555\)/ })).toHaveAttribute('href', /^tel:/);
  await expect(footer.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Blood Bank. All rights reserved.`);
  // Each link is a target a thumb can hit (WCAG 2.5.8: at least 24 px), not a line of small text.
  for (const link of await footer.getByRole('link').all()) {
    expect((await link.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(24);
  }

  await expectAccessible(page, 'the home page');
});

test('the statistics strip shows the live figures of the server', async ({ page, request }, testInfo) => {
  const before = (await (await request.get('/api/stats')).json()) as Stats;
  await page.goto('/');
  await expect(page.getByTestId('stat-donors')).toHaveText(`${figure(before.donors)}Donors`);
  await expect(page.getByTestId('stat-patients')).toHaveText(`${figure(before.patients)}Patients`);
  await expect(page.getByTestId('stat-units')).toHaveText(`${figure(before.units)}Blood Units`);
  await expect(page.getByTestId('stat-donations')).toHaveText(
    `${figure(before.donations)}Successful Donations`,
  );

  await registerThroughApi(request, 'donor', uniqueUsername('stats', testInfo));
  await page.reload();

  await expect(page.getByTestId('stat-donors')).toHaveText(`${figure(before.donors + 1)}Donors`);
  await expectAccessible(page, 'the home page with figures');
});

/** GET /api/public/supply as a visitor: what the strip must show. */
async function serverSupply(request: APIRequestContext): Promise<PublicSupply> {
  const response = await request.get('/api/public/supply');
  expect(response.status()).toBe(200);
  return (await response.json()) as PublicSupply;
}

/** The strip shows exactly the server's levels, every group in the usual order, in words. */
async function expectStripShows(page: Page, supply: PublicSupply): Promise<void> {
  const strip = page.getByRole('region', { name: 'Blood supply today' });
  await expect(strip.getByRole('listitem')).toHaveText(
    supply.map(({ bloodgroup, level }) => `${bloodgroup}${SUPPLY_LEVEL_LABELS[level]}`),
  );
}

/** Every level word is whole ("Critical", never "Crit…") and stays inside its group's card, at any width. */
async function expectLevelWordsWhole(page: Page): Promise<void> {
  const strip = page.getByRole('region', { name: 'Blood supply today' });
  const cut = await strip.getByRole('listitem').evaluateAll((items) =>
    items
      .filter((item) => {
        const label = item.querySelector('.mantine-Badge-label');
        if (!label?.parentElement) return true;
        const card = item.getBoundingClientRect();
        const badge = label.parentElement.getBoundingClientRect();
        return label.scrollWidth > label.clientWidth || badge.left < card.left || badge.right > card.right;
      })
      .map((item) => item.textContent),
  );
  expect(cut, 'level words cut short or overflowing their card').toEqual([]);
}

/** Discards `count` usable red-cell units of a group, as staff would. */
async function discardUnits(
  request: APIRequestContext,
  token: string,
  bloodgroup: BloodGroup,
  count: number,
) {
  if (count === 0) return;
  const response = await request.post('/api/admin/units/discard', {
    headers: { authorization: `Bearer ${token}` },
    data: { bloodgroup, count, reason: 'e2e: the supply strip test sets a level' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test('the blood supply strip shows every group at the level the server computes', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  // AB- is taken through all three levels (defaults: under 2 units critical, under 5 low), then put back.
  const group: BloodGroup = 'AB-';
  const before = (await stockByGroup(request, token))[group];
  await discardUnits(request, token, group, before);
  try {
    await page.goto('/');
    const strip = page.getByRole('region', { name: 'Blood supply today' });
    await expect(strip.getByRole('heading', { level: 2, name: 'Blood supply today' })).toBeVisible();
    let supply = await serverSupply(request);
    expect(supply.map((entry) => entry.bloodgroup)).toEqual([...BLOOD_GROUPS]);
    expect(supply.find((entry) => entry.bloodgroup === group)?.level).toBe('critical');
    await expectStripShows(page, supply);
    await expect(strip.getByTestId('supply-AB-')).toHaveText('AB-Critical');
    await expectLevelWordsWhole(page);
    await expect(strip).not.toContainText(/\d/);
    await expect(page.getByRole('link', { name: 'Book a donation' })).toHaveAttribute(
      'href',
      '/donor/donorlogin?next=%2Fdonor%2Fdonate',
    );
    await expect(page.getByText('Low or critical?')).toHaveText('Low or critical? Book a donation.');
    await expectAccessible(page, 'the home page with the blood supply');

    await receiveUnits(request, token, group, 2);
    await page.reload();
    supply = await serverSupply(request);
    await expectStripShows(page, supply);
    await expect(strip.getByTestId('supply-AB-')).toHaveText('AB-Low');

    await receiveUnits(request, token, group, 3);
    await page.reload();
    supply = await serverSupply(request);
    await expectStripShows(page, supply);
    await expect(strip.getByTestId('supply-AB-')).toHaveText('AB-Good');
    await expectLevelWordsWhole(page);
    await expectAccessible(page, 'the home page with the blood supply');
  } finally {
    // Back to the count it had, for the other specs.
    const now = (await stockByGroup(request, token))[group];
    if (now < before) await receiveUnits(request, token, group, before - now);
    else await discardUnits(request, token, group, now - before);
  }
});

test('a visitor navigates with the Donor and Patient menus (a burger menu on a phone)', async ({ page }) => {
  await page.goto('/');
  const navigation = await openNavigation(page);
  await expect(navigation.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', '/');
  await expect(navigation.getByRole('link', { name: 'Admin', exact: true })).toHaveAttribute(
    'href',
    '/admin/adminlogin',
  );

  if (isPhone(page)) {
    await expect(page.getByRole('button', { name: 'Donor', exact: true })).toHaveCount(0);
    for (const group of ['Donor', 'Patient']) {
      const links = navigation.getByRole('group', { name: group });
      await expect(links.getByRole('link', { name: 'Login' })).toBeVisible();
      await expect(links.getByRole('link', { name: 'Register' })).toBeVisible();
    }
    await expectAccessible(page, 'the visitor phone menu');
    await navigation.getByRole('group', { name: 'Patient' }).getByRole('link', { name: 'Register' }).click();
    // The menu closes once a link is followed.
    await expect(page.getByRole('button', { name: 'Open navigation' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  } else {
    await expect(page.getByRole('button', { name: 'Open navigation' })).toBeHidden();
    await navigation.getByRole('button', { name: 'Donor', exact: true }).click();
    const donorMenu = page.getByRole('menu', { name: 'Donor' });
    await expect(donorMenu.getByRole('menuitem', { name: 'Login' })).toHaveAttribute(
      'href',
      '/donor/donorlogin',
    );
    await expect(donorMenu.getByRole('menuitem', { name: 'Register' })).toHaveAttribute(
      'href',
      '/donor/donorsignup',
    );
    await expectAccessible(page, 'the open Donor menu');
    await page.keyboard.press('Escape');
    await expect(donorMenu).toBeHidden();
    // Tab leaves an open menu for its button, as a menu button's Tab does (it was trapped in it).
    const donorButton = navigation.getByRole('button', { name: 'Donor', exact: true });
    await donorButton.click();
    await expect(donorMenu.getByRole('menuitem', { name: 'Login' })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(donorMenu).toBeHidden();
    await expect(donorButton).toBeFocused();

    await navigation.getByRole('button', { name: 'Patient', exact: true }).click();
    const patientMenu = page.getByRole('menu', { name: 'Patient' });
    await expect(patientMenu.getByRole('menuitem', { name: 'Login' })).toHaveAttribute(
      'href',
      '/patient/patientlogin',
    );
    await patientMenu.getByRole('menuitem', { name: 'Register' }).click();
  }

  await expect(page).toHaveURL('/patient/patientsignup');
  await expect(page.getByRole('heading', { level: 1, name: 'Patient Registration' })).toBeVisible();
});
