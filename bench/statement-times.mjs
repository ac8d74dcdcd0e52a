// Preloaded (--import) into the benchmarked server with `npm run bench -- --statement-times` (SQLite only): times
// every statement the server's thread runs through better-sqlite3 and, every two seconds and when
// the server stops, writes the totals by statement text to bench/profiles/statements-<pid>.txt,
// the costliest first. What a request's statements cost, apart from everything around them, is the
// floor under its speed (docs/performance.md). Timing adds about a microsecond a statement.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'bench', 'profiles', `statements-${process.pid}.txt`);
// The server's copy of better-sqlite3; the ES module the server imports shares its prototype.
const Database = createRequire(path.join(root, 'apps', 'server', 'package.json'))('better-sqlite3');

/** Statement text (whitespace folded) -> how often it ran and its time in µs. */
const totals = new Map();
let statementPrototypeTimed = false;

function timeStatementMethods(statement) {
  const prototype = Object.getPrototypeOf(statement);
  for (const method of ['run', 'get', 'all']) {
    const untimed = prototype[method];
    prototype[method] = function timed(...args) {
      const started = process.hrtime.bigint();
      try {
        return untimed.apply(this, args);
      } finally {
        const micros = Number(process.hrtime.bigint() - started) / 1000;
        const text = this.source.replace(/\s+/g, ' ');
        const entry = totals.get(text) ?? { count: 0, micros: 0 };
        entry.count += 1;
        entry.micros += micros;
        totals.set(text, entry);
      }
    };
  }
}

const prepare = Database.prototype.prepare;
Database.prototype.prepare = function prepareTimed(...args) {
  const statement = prepare.apply(this, args);
  if (!statementPrototypeTimed) {
    statementPrototypeTimed = true;
    timeStatementMethods(statement);
  }
  return statement;
};

function write() {
  if (totals.size === 0 || !isMainThread) return;
  const lines = [...totals]
    .sort((a, b) => b[1].micros - a[1].micros)
    .map(
      ([text, { count, micros }]) =>
        `${(micros / 1000).toFixed(0).padStart(8)} ms ${String(count).padStart(8)} × ${(micros / count).toFixed(1).padStart(7)} µs  ${text.slice(0, 400)}`,
    );
  fs.mkdirSync(path.dirname(output), { recursive: true });
  fs.writeFileSync(output, `total ms, runs, µs a run, statement\n${lines.join('\n')}\n`);
}
process.on('exit', write);
setInterval(write, 2000).unref();
