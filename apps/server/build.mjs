// Bundles the server and the shared package into dist/ (node_modules stay external).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => name !== '@bloodbank/shared');

await build({
  entryPoints: {
    server: 'src/server.ts',
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
});
