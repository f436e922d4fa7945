import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { precompressAssets } from './build/precompress-assets'
import { preloadBootChunks } from './build/preload-boot-chunks'
import { routePreloads } from './build/route-preloads'

const root = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '')
// react-router 7's package exports name only its development build (with its warnings and
// checks), for every bundler and mode (remix-run/react-router#12532, #14753): a production
// build takes the production files it ships beside them, as its maintainers suggest.
const fromRouterDom = createRequire(createRequire(import.meta.url).resolve('react-router-dom'))
const routerDist = join(dirname(fromRouterDom.resolve('react-router')), '..', 'production')
const productionRouter = [
  { find: /^react-router$/, replacement: join(routerDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: join(routerDist, 'dom-export.mjs') },
]

const contracts = fileURLToPath(new URL('../../packages/contracts/src', import.meta.url))

// The shared rules come straight from packages/contracts' TypeScript sources: the browser
// runs the same code as the server, without a CommonJS build in between.
export default defineConfig(({ command }) => ({
  // Brotli and gzip copies beside each file: the gateway serves them as they are.
  // The app's chunks, run after the first paint, preloaded with the HTML (main.tsx).
  // Each busy address's page chunks, for the gateway to preload with its HTML.
  plugins: [react(), preloadBootChunks(), routePreloads(root), precompressAssets()],
  resolve: {
    alias: [
      ...(command === 'build' ? productionRouter : []),
      { find: /^@marketplace\/contracts\/(.*)$/, replacement: `${contracts}/$1/index.ts` },
      { find: /^@\//, replacement: `${fileURLToPath(new URL('./src', import.meta.url))}/` },
    ],
  },
  server: {
    // `pnpm dev`: the gateway (scripts/start.sh) answers the API and the live connection.
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/logout': 'http://127.0.0.1:8080',
      '/app-config.json': 'http://127.0.0.1:8080',
      '/socket.io': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
  // The manifest lets scripts/bench/web-bundle.mjs measure what the home route loads.
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      // The contracts' constant lists come with a TypeBox schema each (`literalUnion`, the
      // services' route schemas), built when the module loads. The web uses the lists, rarely
      // a schema: declared pure, an unused schema's call is dropped, and with it TypeBox
      // from the chunks that never use one (the home route's start among them).
      treeshake: { manualPureFunctions: ['literalUnion', 'Type'] },
    },
  },
}))
