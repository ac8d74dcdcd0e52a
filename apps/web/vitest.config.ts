import { defineConfig, mergeConfig, type ViteUserConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

const config: ViteUserConfig = mergeConfig(
  viteConfig,
  defineConfig({
    root: import.meta.dirname,
    test: {
      name: 'web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      restoreMocks: true,
      unstubGlobals: true,
      // Mantine transitions and user-event typing make a few form tests slower than 5 s on a busy CI box.
      testTimeout: 20_000,
      // Vitest's default is one worker fewer than the cores: a single one on a 2-core CI box.
      maxWorkers: 2,
    },
  }),
);

export default config;
