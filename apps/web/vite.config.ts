import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';

const FEATURE_ROUTES = /[\\/]src[\\/]features[\\/]([a-z-]+)[\\/]routes\.tsx$/;

/** The API server in development (`npm run dev -w @bloodbank/server`). */
const API_TARGET = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000';

const config: UserConfig = defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': path.resolve(import.meta.dirname, 'src') },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/api': { target: API_TARGET, changeOrigin: false } },
  },
  preview: {
    port: 4173,
    proxy: { '/api': { target: API_TARGET, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // Each area (home, auth, admin, donor, patient) is a chunk of its own because app/router.tsx
        // loads the feature's routes module with import(); this only names the files after the area.
        chunkFileNames: (chunk) => {
          const area = FEATURE_ROUTES.exec(chunk.facadeModuleId ?? '')?.[1];
          return area ? `assets/area-${area}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
});

export default config;
