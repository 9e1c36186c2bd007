import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const API_PATHS = ['/trpc', '/api', '/healthz', '/dev/mail', '/simulator'];

/**
 * The client renders with Preact's React-compatible layer (docs/decisions/0044-preact-compat.md): the
 * code, its types and its libraries (TanStack Router and Query, tRPC, react-hook-form, Radix) are written
 * for React, and each import of React is answered by preact/compat, ~45 KB gzipped smaller than react-dom.
 * vitest.config.ts uses the same list, so the client's tests run on the renderer the buyer gets.
 */
export const PREACT_FOR_REACT = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
];

export default defineConfig(({ mode }) => ({
  root: 'src-client',
  publicDir: '../public',
  resolve: { alias: PREACT_FOR_REACT, dedupe: ['preact'] },
  plugins: [
    // React Fast Refresh needs React's own renderer; on Preact it would leave the old screen after an
    // edit, so `npm run dev` reloads the page instead.
    react({ refreshExclude: /./ }),
    tailwindcss(),
    ...gateServiceWorker(),
    ...(mode === 'mock' ? [mockServiceWorker()] : []),
  ],
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
 * page. It precaches what /gate runs (the entry and its imports, the gate route's chunk and everything it
 * imports, the decoder's .wasm, the stylesheets and fonts) and answers /gate navigations from cache, so a
 * device that opened /gate once scans with no network. Buyer and console route chunks stay out: a first
 * visit to /gate downloads the gate, not the whole site. Buyer pages never register it and carry no
 * manifest link: the gate page adds /gate.webmanifest itself.
 */
function gateServiceWorker(): Plugin[] {
  // Chunks of this build that /gate never loads; filled in as the bundle is generated, read when the
  // worker's precache list is written after it.
  const notForGate = new Set<string>();
  const gateChunks: Plugin = {
    name: 'jalsa-gate-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, Extract<(typeof bundle)[string], { type: 'chunk' }>>();
      for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file);
      const gate = [...chunks.values()].find((c) => c.facadeModuleId?.endsWith('/routes/gate/gate.lazy.tsx'));
      if (!gate) throw new Error('No gate route chunk in the bundle');
      const needed = new Set<string>();
      const visit = (fileName: string, withDynamic: boolean) => {
        const chunk = chunks.get(fileName);
        if (!chunk || needed.has(fileName)) return;
        needed.add(fileName);
        for (const next of chunk.imports) visit(next, withDynamic);
        if (withDynamic) for (const next of chunk.dynamicImports) visit(next, true);
      };
      // The entry loads other routes lazily (not needed); the gate route's own lazy imports are, and
      // so are the staff's route definitions, which the entry imports when /gate is opened.
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName, false);
      const staff = [...chunks.values()].find((c) =>
        c.facadeModuleId?.endsWith('/src-client/staff-routes.ts'),
      );
      if (!staff) throw new Error('No staff routes chunk in the bundle');
      visit(staff.fileName, false);
      visit(gate.fileName, true);
      notForGate.clear();
      for (const fileName of chunks.keys()) if (!needed.has(fileName)) notForGate.add(fileName);
    },
  };
  return [
    gateChunks,
    ...VitePWA({
      injectRegister: false,
      manifest: false,
      filename: 'gate-sw.js',
      scope: '/gate',
      workbox: {
        globPatterns: ['**/*.{js,css,wasm,svg,woff2}'],
        globIgnores: ['gate-sw.js', 'workbox-*.js', 'mockServiceWorker.js'],
        manifestTransforms: [
          async (entries) => ({ manifest: entries.filter((e) => !notForGate.has(e.url)), warnings: [] }),
        ],
        // The server renders /gate (stylesheet inlined, shell); a new build gets a new copy.
        additionalManifestEntries: [{ url: '/gate', revision: String(Date.now()) }],
        navigateFallback: '/gate',
        navigateFallbackAllowlist: [/^\/gate(\/|$|\?)/],
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
        clientsClaim: true,
        skipWaiting: true,
        cleanupOutdatedCaches: true,
      },
    }),
  ];
}
