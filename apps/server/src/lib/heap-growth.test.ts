import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT } from './heap-growth';

const SERVER_SRC = path.resolve(import.meta.dirname, '..');
const FIXTURE = path.resolve(SERVER_SRC, '../test/fixtures/old-space-growth.mjs');

/** The largest old space (MB) of a child process that keeps about 30 MB alive and promotes a steady flow of short-lived objects. */
function largestOldSpaceMb(bounded: boolean): number {
  const run = spawnSync(process.execPath, ['--import', 'tsx', FIXTURE, ...(bounded ? ['bounded'] : [])], {
    cwd: SERVER_SRC,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return (JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { largestOldSpaceMb: number }).largestOldSpaceMb;
}

// About 100 MB bounded against about 240 on Node 20: the line between them leaves room either way.
const BOUND_MB = 160;

describe("bounding the main thread's old space (lib/heap-growth.ts)", () => {
  it(`lets the old space grow by ${HEAP_GROWING_PERCENT}% past what is alive`, () => {
    expect(largestOldSpaceMb(true)).toBeLessThan(BOUND_MB);
  });

  it("without it, V8's own growth factor lets the same program's old space grow far larger", () => {
    // If this stops holding on a newer Node, V8 bounds the old space by itself and lib/heap-growth.ts may go.
    expect(
      largestOldSpaceMb(false),
      `Node ${process.version}'s V8 no longer grows the old space past ${BOUND_MB} MB here`,
    ).toBeGreaterThan(BOUND_MB);
  });
});
