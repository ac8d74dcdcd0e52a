// Sums every tier's results into the one closing line CI reads: "N passed, M failed".
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? 'test-results';
const read = (file) => {
  const full = path.join(dir, file);
  return fs.existsSync(full) ? JSON.parse(fs.readFileSync(full, 'utf8')) : undefined;
};

const rows = [];
let passed = 0;
let failed = 0;
// Named at the very end, so the tail of a CI log says which test failed, not only how many.
const failures = [];
const add = (tier, ok, bad, note = '') => {
  rows.push(`${tier.padEnd(26)} ${String(ok).padStart(5)} passed ${String(bad).padStart(4)} failed ${note}`);
  passed += ok;
  failed += bad;
};

for (const line of fs.readFileSync(path.join(dir, 'checks.txt'), 'utf8').split('\n').filter(Boolean)) {
  const [name, outcome] = line.split(' ');
  // A check that could not run (the audit without the registry's advisory service) passes nothing.
  if (outcome === 'skipped') add(`check: ${name}`, 0, 0, '(skipped: could not run)');
  else add(`check: ${name}`, outcome === 'passed' ? 1 : 0, outcome === 'passed' ? 0 : 1);
}

const vitestTiers = [
  ['server tests (SQLite)', 'server-sqlite.json', true],
  ['server reliability (SQLite)', 'server-sqlite-reliability.json', true],
  ['server tests (PostgreSQL)', 'server-postgres.json', false],
  ['server reliability (PostgreSQL)', 'server-postgres-reliability.json', false],
  ['web component tests', 'web.json', true],
];
for (const [tier, file, required] of vitestTiers) {
  const report = read(file);
  if (!report) {
    if (required || process.env.TEST_DATABASE_URL) add(tier, 0, 1, '(no report: the runner did not finish)');
    continue;
  }
  // A file that failed to load has no tests in it but still fails the tier.
  const brokenFiles = report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  add(tier, report.numPassedTests, report.numFailedTests + brokenFiles, report.numPendingTests ? `(${report.numPendingTests} skipped)` : '');
  for (const file of report.testResults) {
    const where = path.relative(process.cwd(), file.name);
    if (file.status === 'failed' && file.assertionResults.length === 0) failures.push(`${tier}: ${where} did not load`);
    for (const test of file.assertionResults.filter((t) => t.status === 'failed')) failures.push(`${tier}: ${where} > ${test.fullName}`);
  }
}

if (fs.existsSync('playwright.config.ts')) {
  const report = read('e2e.json');
  if (!report) add('browser tests', 0, 1, '(no report: the runner did not finish)');
  else {
    const s = report.stats;
    const setupErrors = (report.errors ?? []).length;
    add('browser tests', s.expected + (s.flaky ?? 0), s.unexpected + setupErrors, s.skipped ? `(${s.skipped} skipped)` : '');
  }
}

console.log('\n' + rows.join('\n'));
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((line) => `  - ${line}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
