import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

/**
 * The built web app: its files as they are, index.html for the app's own pages (deep links work on
 * reload), and a 404 in the error shape for a file that is not there.
 */
const SCRIPT = `console.log(${JSON.stringify('app '.repeat(500))})`;

let t: TestApp;
beforeAll(async () => {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-web-'));
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Blood Bank</title><script src="/assets/index-abc123.js"></script>');
  fs.writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), SCRIPT);
  // What the build writes beside each text file (apps/web/vite.config.ts).
  fs.writeFileSync(path.join(webDist, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(webDist, 'assets', 'index-abc123.js.gz'), zlib.gzipSync(SCRIPT));
  fs.writeFileSync(path.join(webDist, 'index.html.gz'), zlib.gzipSync(fs.readFileSync(path.join(webDist, 'index.html'))));
  t = await createTestApp({ env: { WEB_DIST_DIR: webDist } });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('the web app', () => {
  it('serves its files, and index.html for its pages and deep links', async () => {
    const script = await get('/assets/index-abc123.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    // An unknown path is a page too (the app shows the home page), a trailing full stop included.
    for (const page of ['/', '/donor/donor-dashboard', '/admin/donors/12?page=2', '/reset-password?token=a.b-c', '/donor/donor-dashboard.', '/old-page.html']) {
      const answer = await get(page);
      expect(answer.statusCode, page).toBe(200);
      expect(answer.headers['content-type'], page).toMatch(/^text\/html/);
      expect(answer.body, page).toContain('<title>Blood Bank</title>');
    }
  });

  it('sends the compressed copy the browser accepts, Brotli first, and the file itself to one that accepts none', async () => {
    const ask = (url: string, encoding?: string) =>
      t.app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });
    const brotli = await ask('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(brotli.headers).toMatchObject({ 'content-encoding': 'br', vary: expect.stringMatching(/accept-encoding/i) });
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(SCRIPT);
    expect(brotli.rawPayload.length).toBeLessThan(SCRIPT.length / 10);

    const gzip = await ask('/assets/index-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await ask('/assets/index-abc123.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);

    // A page of the app is index.html, compressed too.
    const page = await ask('/donor/donor-dashboard', 'gzip');
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(page.rawPayload).toString()).toContain('<title>Blood Bank</title>');
  });

  it('answers a missing file with a 404 in the error shape, never index.html (which a browser refuses as a script)', async () => {
    for (const file of ['/assets/index-gone999.js', '/assets/index-gone999.css', '/favicon-nope.png', '/assets/fonts']) {
      const answer = await get(file);
      expect(answer.statusCode, file).toBe(404);
      expect(answer.headers['content-type'], file).toMatch(/^application\/json/);
      expect(answer.json(), file).toEqual({ detail: `Not Found: GET ${file}`, code: 'not_found' });
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/index-gone999.js' });
    expect(head.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'HEAD', url: '/donor/donor-dashboard' })).statusCode).toBe(200);
  });
});
