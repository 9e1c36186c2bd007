import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const API_PATHS = ['/trpc', '/api', '/healthz', '/dev/mail', '/simulator'];

export default defineConfig(({ mode }) => ({
  root: 'src-client',
  publicDir: '../public',
  plugins: [react(), tailwindcss(), gateServiceWorker(), ...(mode === 'mock' ? [mockServiceWorker()] : [])],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // scripts/report-bundle-size.ts follows each route's lazy imports through the manifest.
    manifest: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    // `npm run dev` runs the API on :3000 beside this dev server; `dev:mock` answers from msw instead.
    proxy:
      mode === 'mock' ? undefined : Object.fromEntries(API_PATHS.map((p) => [p, 'http://localhost:3000'])),
  },
}));

/** Serves msw's service worker in `dev:mock` only, so it never ships in a production build. */
function mockServiceWorker(): Plugin {
  const file = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js');
  return {
    name: 'jalsa-msw-worker',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript');
        createReadStream(file).pipe(res);
      });
    },
  };
}

/**
 * The gate's service worker (docs/decisions/0022): /gate-sw.js, scope /gate, registered only by the gate
 * page. It precaches the built assets (and the decoder's .wasm) and answers /gate navigations from cache,
 * so a device that opened /gate once scans with no network. Buyer pages never register it and carry no
 * manifest link: the gate page adds /gate.webmanifest itself.
 */
function gateServiceWorker() {
  return VitePWA({
    injectRegister: false,
    manifest: false,
    filename: 'gate-sw.js',
    scope: '/gate',
    workbox: {
      globPatterns: ['**/*.{js,css,wasm,svg,woff2}'],
      globIgnores: ['gate-sw.js', 'workbox-*.js', 'mockServiceWorker.js'],
      // The server renders /gate (stylesheet inlined, shell); a new build gets a new copy.
      additionalManifestEntries: [{ url: '/gate', revision: String(Date.now()) }],
      navigateFallback: '/gate',
      navigateFallbackAllowlist: [/^\/gate(\/|$|\?)/],
      maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
      clientsClaim: true,
      skipWaiting: true,
      cleanupOutdatedCaches: true,
    },
  });
}
