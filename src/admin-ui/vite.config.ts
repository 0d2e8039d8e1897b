// Builds the admin app into dist/admin (served by the CMS at /admin); `npm run
// dev:ui` serves it with hot reload and passes API and media requests to a
// CMS started with `npm run dev` on port 3000.
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const CMS = 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
  plugins: [preact()],
  build: {
    outDir: '../../dist/admin',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    // dist/admin/.vite/manifest.json: which files the first screen loads (npm run audit:ui sums them).
    manifest: true,
  },
  server: {
    proxy: { '/admin/api': CMS, '/media': CMS, '/media-thumbs': CMS },
  },
});
