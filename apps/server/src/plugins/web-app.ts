import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built React app. Hashed assets are cached for a year; index.html never is, and it
 * answers every non-API GET so deep links work on reload. Each text file is sent as the Brotli or
 * gzip copy the build wrote beside it when the browser accepts one (apps/web/vite.config.ts), with
 * `Vary: accept-encoding`; as it is otherwise.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<boolean> {
  const indexFile = path.join(webDistDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ webDistDir }, 'web app not built: serving the API only (run `npm run build`)');
    return false;
  }
  await app.register(fastifyStatic, {
    root: webDistDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders: (res, filePath) => {
      res.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  return true;
}

/** What the built app's files end with: a request for one that is not there is not a page. */
const STATIC_FILE = /\.(?:js|mjs|css|map|json|webmanifest|txt|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf)$/i;

/**
 * A page of the app (a deep link, or an unknown path: index.html answers it and the app shows the
 * home page, PRODUCT.md 2). A missing asset ("/assets/index-abc.js", "/favicon.png") is a 404 in
 * the error shape instead: a page built before a rebuild asks for assets that are gone, and
 * index.html in their place would be refused by the browser as script and leave a blank page.
 */
export function isSpaRequest(method: string, url: string): boolean {
  if ((method !== 'GET' && method !== 'HEAD') || url.startsWith('/api/') || url === '/api') return false;
  const pathname = url.split(/[?#]/, 1)[0]!;
  return !pathname.startsWith('/assets/') && !STATIC_FILE.test(pathname);
}
