import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Each file builds its own app on its own fresh database; files run in parallel.
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core CI box. The files wait on
    // disk flushes and PostgreSQL much of the time, so two workers there take 207 s for the
    // PostgreSQL pass instead of 372 s (measured 2026-11-27; four were no faster there, and one run
    // of four failed a test app's migration with "schema does not exist").
    maxWorkers: 2,
  },
});
