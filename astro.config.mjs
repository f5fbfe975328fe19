// Astro builds the static site (datasets, feeds, pages) into dist/client; the Node adapter in
// middleware mode gives src/server.ts a handler for anything not pre-rendered. Sessions are off:
// the service keeps no per-visitor state.
import path from 'node:path';
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import { parseConfig } from './src/config.ts';

const config = parseConfig();

export default defineConfig({
  site: config.SITE_URL,
  output: 'static',
  outDir: path.resolve(config.DIST_DIR),
  adapter: node({ mode: 'middleware' }),
  session: false,
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
  telemetry: false,
  vite: {
    define: {
      'import.meta.env.REVIEWS_CONTENT_DIR': JSON.stringify(path.resolve(config.CONTENT_DIR)),
    },
  },
});
