// The README's screenshots, taken from a running app that holds the demo data:
//
//   DATA_DIR=/tmp/bloodbank-demo npm run seed:demo
//   DATA_DIR=/tmp/bloodbank-demo PORT=3300 npm run start:built
//   node scripts/readme-screenshots.mjs http://127.0.0.1:3300
//
// Debian's Chromium (/usr/bin/chromium), never a downloaded browser; 1280 px and 375 px wide.
// The demo accounts are the ones `npm run seed:demo` prints.
import path from 'node:path';
import { chromium } from '@playwright/test';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:3300';
const output = path.join(import.meta.dirname, '..', 'docs', 'screenshots');
const password = 'demo-password';
const accounts = { admin: 'demo_admin', donor: 'asha.kulkarni', patient: process.env.DEMO_PATIENT ?? 'sara.sharma' };

const shots = [
  { file: 'home.png', width: 1280, path: '/', fullPage: true },
  { file: 'admin-dashboard.png', width: 1280, path: '/admin/admin-dashboard', as: 'admin' },
  { file: 'donor-dashboard.png', width: 1280, path: '/donor/donor-dashboard', as: 'donor' },
  { file: 'donor-game.png', width: 1280, path: '/donor/game', as: 'donor' },
  { file: 'patient-dashboard.png', width: 1280, path: '/patient/patient-dashboard', as: 'patient' },
  { file: 'home-phone.png', width: 375, path: '/' },
  { file: 'admin-dashboard-phone.png', width: 375, path: '/admin/admin-dashboard', as: 'admin' },
  { file: 'donor-dashboard-phone.png', width: 375, path: '/donor/donor-dashboard', as: 'donor' },
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  for (const shot of shots) {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: shot.width, height: shot.width < 600 ? 812 : 900 } });
    const page = await context.newPage();
    if (shot.as) {
      // Signed in as the web app signs in: the token answer kept in localStorage.
      const response = await page.request.post('/api/auth/token', { form: { username: accounts[shot.as], password } });
      if (!response.ok()) throw new Error(`sign-in of ${accounts[shot.as]} answered ${response.status()}`);
      const session = await response.json();
      await page.goto('/');
      await page.evaluate((token) => {
        localStorage.setItem('token', token.access_token);
        localStorage.setItem('userType', token.user_type);
        localStorage.setItem('userId', String(token.user_id));
      }, session);
    }
    await page.goto(shot.path);
    await page.waitForLoadState('networkidle');
    // Charts and the figures' count-up settle after the data arrives.
    await page.waitForTimeout(1500);
    await page.screenshot({ path: path.join(output, shot.file), fullPage: shot.fullPage ?? false, animations: 'disabled' });
    console.log(`${shot.file}: ${shot.path} at ${shot.width} px${shot.as ? ` as ${accounts[shot.as]}` : ''}`);
    await context.close();
  }
} finally {
  await browser.close();
}
