#!/usr/bin/env node
// The front end's size budget (issue 8), checked on the built web app (apps/web/dist):
//  1. the JavaScript the home page loads before it can render (the entry script, the scripts it
//     modulepreloads, and everything those import statically) is at most 150 KB gzip;
//  2. each role area (admin, donor, patient) is a lazy chunk of its own: a separate file that is
//     not part of that initial JavaScript and is only reached through a dynamic import().
// Exits 1 when either fails (or when there is no build), printing what it measured.
//
//   node scripts/check-bundle-size.mjs [--dist apps/web/dist] [--budget-kb 150]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const argument = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
};
const dist = path.resolve(root, argument('dist', 'apps/web/dist'));
const budgetBytes = Number(argument('budget-kb', '150')) * 1000;
const ROLE_AREAS = ['admin', 'donor', 'patient'];

const failures = [];
const indexFile = path.join(dist, 'index.html');
if (!fs.existsSync(indexFile)) {
  console.error(
    `bundle size: ${path.relative(root, indexFile)} not found; build the web app first (npm run build).`,
  );
  process.exit(1);
}
const html = fs.readFileSync(indexFile, 'utf8');

/** A root-relative URL of the built site ("/assets/x.js") to its file in dist. */
const fileOf = (url) => path.join(dist, decodeURIComponent(url.split(/[?#]/)[0].replace(/^\//, '')));
const attribute = (tag, name) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];

const entries = [...html.matchAll(/<script\b[^>]*>/gi)]
  .map(([tag]) => tag)
  .filter((tag) => /type\s*=\s*["']module["']/i.test(tag) && attribute(tag, 'src'))
  .map((tag) => fileOf(attribute(tag, 'src')));
const preloads = [...html.matchAll(/<link\b[^>]*>/gi)]
  .map(([tag]) => tag)
  .filter((tag) => /rel\s*=\s*["']modulepreload["']/i.test(tag) && attribute(tag, 'href'))
  .map((tag) => fileOf(attribute(tag, 'href')));
if (entries.length === 0) failures.push('index.html loads no module script');

// Static imports ("import … from './x.js'", "import './x.js'", "export … from './x.js'") load
// before the importing module runs; import('./x.js') does not. Comments and strings in minified
// output do not contain these forms followed by a relative chunk path.
const STATIC_IMPORT =
  /(?:^|[;\n}\s])(?:import|export)\s*(?:[\w*${}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
// Bundlers write the dynamic ones with quotes or backticks: import(`./area-admin-x.js`).
const DYNAMIC_IMPORT = /\bimport\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g;

function staticImportsOf(file) {
  const code = fs.readFileSync(file, 'utf8');
  return [...code.matchAll(STATIC_IMPORT)].map((match) => path.resolve(path.dirname(file), match[1]));
}

const initial = new Set();
const queue = [...entries, ...preloads];
while (queue.length > 0) {
  const file = queue.shift();
  if (initial.has(file)) continue;
  if (!fs.existsSync(file)) {
    failures.push(`${path.relative(dist, file)} is referenced but missing`);
    continue;
  }
  initial.add(file);
  queue.push(...staticImportsOf(file));
}

const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
let total = 0;
console.log(`Initial JavaScript of the home page (${path.relative(root, dist)}), gzip:`);
for (const file of [...initial].sort()) {
  const size = gzipSize(file);
  total += size;
  console.log(`  ${path.relative(dist, file).padEnd(48)} ${kb(size).padStart(9)}`);
}
console.log(`  ${'total'.padEnd(48)} ${kb(total).padStart(9)}   (budget ${kb(budgetBytes)})`);
if (total > budgetBytes)
  failures.push(`initial JavaScript is ${kb(total)} gzip, over the ${kb(budgetBytes)} budget`);

// Role areas: vite.config.ts names each feature's lazy routes chunk assets/area-<feature>-<hash>.js.
const assets = fs.readdirSync(path.join(dist, 'assets'));
const allScripts = assets
  .filter((name) => name.endsWith('.js'))
  .map((name) => path.join(dist, 'assets', name));
const dynamicTargets = new Set(
  allScripts.flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(DYNAMIC_IMPORT)].map((match) =>
      path.resolve(path.dirname(file), match[1]),
    ),
  ),
);
console.log('\nRole areas (lazy chunks), gzip:');
for (const area of ROLE_AREAS) {
  const chunks = allScripts.filter((file) =>
    new RegExp(`^area-${area}-[\\w-]+\\.js$`).test(path.basename(file)),
  );
  if (chunks.length !== 1) {
    failures.push(
      `expected one lazy chunk for the ${area} area (assets/area-${area}-*.js), found ${chunks.length}`,
    );
    continue;
  }
  const [chunk] = chunks;
  const problems = [];
  if (initial.has(chunk)) problems.push('loaded by the home page');
  if (!dynamicTargets.has(chunk)) problems.push('never loaded through import()');
  console.log(
    `  ${area.padEnd(10)} ${path.basename(chunk).padEnd(38)} ${kb(gzipSize(chunk)).padStart(9)}${problems.length ? `   ${problems.join(', ')}` : ''}`,
  );
  for (const problem of problems) failures.push(`the ${area} area chunk is ${problem}`);
}

if (failures.length > 0) {
  console.error(`\nBundle size check FAILED:\n${failures.map((line) => `  - ${line}`).join('\n')}`);
  process.exit(1);
}
console.log('\nBundle size check passed.');
