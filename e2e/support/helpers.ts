import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Locator, type Page, type TestInfo } from '@playwright/test';

export { E2E_ADMIN } from './constants';

/** True on the 375 px project: the header is a burger menu there. */
export function isPhone(page: Page): boolean {
  return (page.viewportSize()?.width ?? 1280) < 768;
}

/**
 * No serious or critical axe violation on what the page shows now. Called on every screen a test
 * visits; each spec runs at desktop width and at 375 px, so every screen is checked at both.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // A list can start refetching (and dim its rows) while axe is reading the page, after the waits
  // below have passed: a check that overlapped such a change is run again on the settled page.
  for (let attempt = 1; ; attempt += 1) {
    await waitUntilSettled(page);
    await page.evaluate(watchForChange);
    const blocking = await blockingViolations(page);
    const changed = await page.evaluate(() => (window as WatchedWindow).__axeSawChange === true);
    if (blocking.length === 0 || !changed || attempt === 3) {
      expect(blocking, `axe violations on ${screen} at ${page.viewportSize()?.width}px`).toEqual([]);
      return;
    }
  }
}

interface WatchedWindow extends Window {
  __axeSawChange?: boolean;
  __axeStopWatching?: () => void;
}

/** No list refetching and no fade under way. */
async function waitUntilSettled(page: Page): Promise<void> {
  // A list that is refetching dims its rows on purpose (aria-busy, data-table.module.css): wait until it is done.
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  // Mid-fade (menus, transitions, the dimmed rows coming back) text has a blended colour that axe
  // would report as low contrast.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
      ),
  );
}

/** Runs in the page: notes any list turning busy or any transition or animation starting. */
function watchForChange(): void {
  const watched = window as WatchedWindow;
  watched.__axeStopWatching?.();
  watched.__axeSawChange = false;
  const sawChange = () => {
    watched.__axeSawChange = true;
  };
  const observer = new MutationObserver(sawChange);
  observer.observe(document.body, { subtree: true, attributeFilter: ['aria-busy'] });
  document.addEventListener('transitionrun', sawChange, { capture: true });
  document.addEventListener('animationstart', sawChange, { capture: true });
  watched.__axeStopWatching = () => {
    observer.disconnect();
    document.removeEventListener('transitionrun', sawChange, { capture: true });
    document.removeEventListener('animationstart', sawChange, { capture: true });
  };
}

/** Serious or critical axe violations on what the page shows now. */
async function blockingViolations(page: Page): Promise<string[]> {
  // Behind an open modal dialog the page is covered and out of reach (and checked before the dialog
  // opened); what is behind the overlay only shows blended colours, so the dialog is what is checked.
  const modalDialog = '[role="dialog"][aria-modal="true"]';
  const builder = new AxeBuilder({ page });
  if (await page.locator(`${modalDialog}:visible`).count()) builder.include(modalDialog);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n` +
        violation.nodes
          .map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`)
          .join('\n'),
    );
}

/** A username no other test (or project, or earlier run) uses. */
export function uniqueUsername(prefix: string, testInfo: TestInfo): string {
  const random = Math.random().toString(36).slice(2, 7);
  return `${prefix}-${testInfo.project.name}-${Date.now().toString(36)}${random}`.slice(0, 50);
}

export interface Account {
  username: string;
  password: string;
  first_name: string;
  userType: 'donor' | 'patient';
}

/** Registers through the API, for tests whose subject is not the registration form. */
export async function registerThroughApi(
  request: APIRequestContext,
  userType: 'donor' | 'patient',
  username: string,
  firstName = userType === 'donor' ? 'Dana' : 'Pat',
): Promise<Account> {
  const account = { username, password: 'secret-pass', first_name: firstName };
  const response = await request.post('/api/auth/register', {
    data: {
      user_type: userType,
      ...account,
      last_name: 'Tester',
      email: `${username}@example.com`,
      bloodgroup: 'O+',
      address: '1 Test Street',
      mobile: '9876543210',
      ...(userType === 'patient' ? { disease: 'Surgery', age: 40, doctorname: 'Dr. Rao' } : {}),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { ...account, userType };
}

/** Signs in through the API and stores the session the way the app does, then opens `path`. */
export async function openSignedIn(
  page: Page,
  credentials: { username: string; password: string },
  path: string,
): Promise<void> {
  const response = await page.request.post('/api/auth/token', {
    form: { username: credentials.username, password: credentials.password },
  });
  expect(response.status()).toBe(200);
  const token = (await response.json()) as { access_token: string; user_type: string; user_id: number };
  await page.goto('/');
  await page.evaluate((session) => {
    localStorage.setItem('token', session.access_token);
    localStorage.setItem('userType', session.user_type);
    localStorage.setItem('userId', String(session.user_id));
  }, token);
  await page.goto(path);
}

/** The header's navigation as the user sees it: the bar on desktop, the opened burger menu on a phone. */
export async function openNavigation(page: Page): Promise<Locator> {
  if (isPhone(page)) {
    const burger = page.getByRole('button', { name: 'Open navigation' });
    await burger.click();
    await expect(page.getByRole('button', { name: 'Close navigation' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  }
  const navigation = page.getByRole('navigation', { name: 'Main' });
  await expect(navigation).toBeVisible();
  return navigation;
}

/** Follows a link of the header (opening the burger menu first on a phone) and waits for the page. */
export async function followHeaderLink(page: Page, label: string, path: string): Promise<void> {
  const navigation = await openNavigation(page);
  await navigation.getByRole('link', { name: label, exact: true }).click();
  await expect(page).toHaveURL(path);
  await expectScreenShown(page);
}

/** The role areas fill in over time; a screen is "shown" once its main area has a heading. */
export async function expectScreenShown(page: Page): Promise<void> {
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
  await expect(page.getByRole('main').getByTestId('page-loader')).toHaveCount(0);
}

/** Checks the signed-in header (role links, dropdown titled with the name) and logs out through it. */
export async function expectSignedInHeaderAndLogOut(
  page: Page,
  expected: { name: string; links: { label: string; href: string }[] },
): Promise<void> {
  const navigation = await openNavigation(page);
  await expect(navigation.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', '/');
  for (const link of expected.links) {
    await expect(navigation.getByRole('link', { name: link.label, exact: true })).toHaveAttribute(
      'href',
      link.href,
    );
  }
  await expect(navigation.getByRole('button', { name: 'Donor', exact: true })).toHaveCount(0);

  if (isPhone(page)) {
    await expect(navigation.getByRole('group', { name: expected.name })).toBeVisible();
    await expectAccessible(page, 'the signed-in phone menu');
    await navigation.getByRole('button', { name: 'Logout' }).click();
  } else {
    await navigation.getByRole('button', { name: expected.name, exact: true }).click();
    await expectAccessible(page, 'the signed-in user menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
  }

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Give Blood, Give Life' })).toBeVisible();
  expect(
    await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('userType')]),
  ).toEqual([null, null]);
  const visitorNavigation = await openNavigation(page);
  await expect(visitorNavigation.getByRole('link', { name: 'Admin', exact: true })).toBeVisible();
  if (isPhone(page)) await page.getByRole('button', { name: 'Close navigation' }).click();
}

/** A 1x1 PNG, so the server's content check accepts it. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
