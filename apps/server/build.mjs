// Bundles the server and the shared package into dist/ (node_modules stay external).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => name !== '@bloodbank/shared');

// server.ts keeps V8's tick object maps alive before anything else loads, then imports start-server
// at run time: bundled into it, start-server's package imports would be hoisted above that.
const startServerLoadedAtRunTime = {
  name: 'start-server-loaded-at-run-time',
  setup(builder) {
    builder.onResolve({ filter: /^\.\/start-server$/ }, () => ({
      path: './start-server.js',
      external: true,
    }));
  },
};

await build({
  entryPoints: {
    server: 'src/server.ts',
    'start-server': 'src/start-server.ts',
    'cli/migrate': 'src/cli/migrate.ts',
    'cli/create-admin': 'src/cli/create-admin.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
  plugins: [startServerLoadedAtRunTime],
});

// The built entry must load nothing before lib/tick-object-maps.ts has run: a bundling change that
// hoisted a package import into it would silently bring back the slow tick objects (decision 0005).
const entryImports = [
  ...readFileSync(new URL('./dist/server.js', import.meta.url), 'utf8').matchAll(/^import\b.*$/gm),
];
const unexpected = entryImports.map(([line]) => line).filter((line) => !line.includes('"node:async_hooks"'));
if (unexpected.length > 0) {
  console.error(
    `dist/server.js must import nothing but node:async_hooks before start-server; it has:\n${unexpected.join('\n')}`,
  );
  process.exit(1);
}
