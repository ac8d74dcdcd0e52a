import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_ADMIN, E2E_PORT, zoneNearNoon } from './e2e/support/constants';

/**
 * The browser suite: Debian's Chromium (never a downloaded browser) against the built app served by
 * the built server on a fresh SQLite database (test-results/e2e-run/data, new on every run).
 * `npm run build` first.
 *
 * Every spec runs twice, at desktop width and at 375 px, so each screen's axe check covers both.
 */
const baseURL = `http://127.0.0.1:${E2E_PORT}`;

// Workers load this file again; the variable makes them reuse what the main process prepared
// instead of wiping the database the server is running on.
if (!process.env.E2E_DATA_DIR) {
  const runDir = path.join(import.meta.dirname, 'test-results', 'e2e-run');
  fs.rmSync(runDir, { recursive: true, force: true });
  const dataDir = path.join(runDir, 'data');
  fs.mkdirSync(dataDir, { recursive: true });

  // The server serves a snapshot of the built web app: a rebuild of apps/web/dist during the run
  // (another terminal, a watch build) would otherwise swap the asset files under the test.
  const builtWeb = path.join(import.meta.dirname, 'apps', 'web', 'dist');
  if (!fs.existsSync(path.join(builtWeb, 'index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` before the browser tests');
  }
  const webDir = path.join(runDir, 'web');
  fs.cpSync(builtWeb, webDir, { recursive: true });

  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_WEB_DIR = webDir;
}
// The bank's day, the browsers' and the specs' are one, and the run starts at its noon (see e2eTimezone).
process.env.E2E_TIMEZONE ??= zoneNearNoon();
process.env.TZ = process.env.E2E_TIMEZONE;
const timezone = process.env.E2E_TIMEZONE;

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e-artifacts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    // Menus then open without a fade, so axe never measures text halfway through one (the app
    // honours the setting: theme.respectReducedMotion).
    reducedMotion: 'reduce',
    timezoneId: timezone,
    trace: 'off',
    video: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
    {
      name: 'mobile',
      use: { browserName: 'chromium', viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
    },
  ],
  webServer: {
    command: 'node apps/server/dist/server.js',
    url: `${baseURL}/api/health`,
    // A server already on the port is not ours: fail rather than test against it.
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      DATA_DIR: process.env.E2E_DATA_DIR,
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
      TIMEZONE: timezone,
      RATE_LIMIT_MAX: '100000',
      // Always the embedded SQLite database, whatever the calling shell has set.
      DATABASE_URL: '',
      REDIS_URL: '',
      JWT_SECRET: '',
      WEB_DIST_DIR: process.env.E2E_WEB_DIR ?? '',
    },
  },
});
