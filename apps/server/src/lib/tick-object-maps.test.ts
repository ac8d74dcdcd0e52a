import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER_SRC = path.resolve(import.meta.dirname, '..');
const FIXTURE = path.resolve(SERVER_SRC, '../test/fixtures/tick-object-feedback.mjs');

/** The inline cache state of each property of process.nextTick's object literal, after early collections. */
function tickLiteralStates(keep: boolean): string[] {
  // %DebugPrint writes through C's stdio, which can drop the end of its text on a non-blocking
  // pipe: the child writes to a file instead.
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tick-object-maps-'));
  const outputFile = path.join(directory, 'stdout.txt');
  try {
    const output = fs.openSync(outputFile, 'w');
    try {
      const run = spawnSync(
        process.execPath,
        ['--expose-gc', '--allow-natives-syntax', '--import', 'tsx', FIXTURE, ...(keep ? ['keep'] : [])],
        { cwd: SERVER_SRC, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', output, 'pipe'] },
      );
      expect(run.status, run.stderr).toBe(0);
    } finally {
      fs.closeSync(output);
    }
    const printed = fs.readFileSync(outputFile, 'utf8');
    const states = [...printed.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
    expect(
      states.length,
      `no inline cache states in %DebugPrint's output on Node ${process.version}`,
    ).toBeGreaterThan(0);
    return states;
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

describe("keeping V8's maps of process.nextTick objects alive", () => {
  it('without it, collections during startup leave every later tick object to the slow path', () => {
    // The behaviour this works around (Node 20's V8): if this stops reproducing on a newer Node,
    // lib/tick-object-maps.ts is no longer needed.
    const states = tickLiteralStates(false);
    expect(
      states,
      `Node ${process.version} no longer loses the tick object maps: lib/tick-object-maps.ts may be removed`,
    ).toContain('MEGAMORPHIC');
  });

  it('with it, the literal keeps its fast path through the same collections', () => {
    const slowed = tickLiteralStates(true).filter((state) => state !== 'MONOMORPHIC');
    expect(slowed).toEqual([]);
  });

  it('the server entry loads it before any other module, and the server only after it', () => {
    const entry = fs.readFileSync(path.join(SERVER_SRC, 'server.ts'), 'utf8');
    const statements = entry.split('\n').filter((line) => /^(import|await import)\b/.test(line));
    expect(statements).toEqual(["import './lib/tick-object-maps';", "await import('./start-server');"]);
  });
});
