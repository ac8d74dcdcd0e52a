import { defineConfig } from 'vitest/config';

/** One vitest run, two projects: the server (node) and the web app (jsdom). */
export default defineConfig({
  test: {
    projects: ['apps/server', 'apps/web'],
  },
});
