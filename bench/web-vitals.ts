/**
 * Largest Contentful Paint and Cumulative Layout Shift of the home page and the admin dashboard,
 * measured in Debian's Chromium (never a downloaded browser) against the benchmark's server.
 * Each page is loaded cold (new context, empty cache), then the observers report what the browser
 * recorded; CLS sums layout shifts not caused by input, as the web-vitals definition does.
 */
import { chromium, type Browser } from 'playwright-core';

export interface WebVitals {
  page: string;
  lcp_ms: number | null;
  cls: number;
  /** The elements that moved most, with their share of the CLS: where to look when CLS is high. */
  shifted: { element: string; score: number }[];
}

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Installed before any page script runs: keeps the last LCP candidate and the CLS sum on window. */
const OBSERVERS = `
  window.__vitals = { lcp: null, cls: 0, shifted: {} };
  const describe = (node) => {
    if (!node || !node.tagName) return String(node && node.nodeName);
    const id = node.id ? '#' + node.id : '';
    const classes = typeof node.className === 'string' && node.className ? '.' + node.className.trim().split(/\\s+/).slice(0, 2).join('.') : '';
    return node.tagName.toLowerCase() + id + classes;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__vitals.lcp = entry.renderTime || entry.loadTime || entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__vitals.cls += entry.value;
      for (const source of entry.sources || []) {
        const key = describe(source.node);
        window.__vitals.shifted[key] = (window.__vitals.shifted[key] || 0) + entry.value / Math.max(1, entry.sources.length);
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
`;

async function measurePage(
  browser: Browser,
  url: string,
  label: string,
  options: { token?: string; heading: RegExp },
): Promise<WebVitals> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(OBSERVERS);
    if (options.token) {
      // The web app's stored session (lib/session-storage.ts): the token is all it trusts.
      await context.addInitScript(
        `try { localStorage.setItem('token', ${JSON.stringify(options.token)}); localStorage.setItem('userType', 'admin'); localStorage.setItem('userId', '1'); } catch {}`,
      );
    }
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.getByRole('heading', { level: 1, name: options.heading }).waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    // LCP is final once the page settles; give late shifts a moment to be recorded.
    await page.waitForTimeout(500);
    const landed = new URL(page.url()).pathname;
    if (landed !== new URL(url).pathname) throw new Error(`${label}: the app went to ${landed} instead`);
    const vitals = await page.evaluate(
      () =>
        (
          globalThis as unknown as {
            __vitals: { lcp: number | null; cls: number; shifted: Record<string, number> };
          }
        ).__vitals,
    );
    return {
      page: label,
      lcp_ms: vitals.lcp === null ? null : Math.round(vitals.lcp),
      cls: Math.round(vitals.cls * 1000) / 1000,
      shifted: Object.entries(vitals.shifted)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([element, score]) => ({ element, score: Math.round(score * 1000) / 1000 })),
    };
  } finally {
    await context.close();
  }
}

export async function measureWebVitals(baseUrl: string, adminToken: string): Promise<WebVitals[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    return [
      await measurePage(browser, `${baseUrl}/`, 'GET / (home)', { heading: /./ }),
      await measurePage(browser, `${baseUrl}/admin/admin-dashboard`, 'GET /admin/admin-dashboard', {
        token: adminToken,
        heading: /Administrator Dashboard/,
      }),
    ];
  } finally {
    await browser.close();
  }
}
