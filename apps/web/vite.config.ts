import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { desktopBudget } from './build/desktop-budget.ts';
import { mobileBudget } from './build/mobile-budget.ts';
import { precompress } from './build/precompress.ts';

/** The shore server a `vite` dev server forwards calls to (`npm start` at the root listens on 8080). */
const shoreServer = 'http://127.0.0.1:8080';

export default defineConfig({
  // The shore server serves the build under /monitor/ (spec §2); dev uses the same base so URLs match.
  base: '/monitor/',
  plugins: [
    react(),
    // A phone's first screen loads at most 250 KB gzip of JavaScript, none of it antd; printed every build
    // (what a browser downloads on the wire, from the sign-in page on: e2e/mobile-js-budget.spec.ts).
    mobileBudget({ entryModule: 'src/mobile/MobileApp.tsx', limitBytes: 250 * 1024, forbidden: /node_modules\/(antd|@ant-design)\// }),
    // The desktop's live preview, opened first, loads at most 350 KB gzip of JavaScript (the chunks the
    // build knows; what a browser downloads from the sign-in page on, on the wire: e2e/js-budget.spec.ts).
    desktopBudget({ appModule: 'src/app/App.tsx', firstScreenModule: 'src/app/routes/LivePreviewPage.tsx', limitBytes: 350 * 1024 }),
    // .br and .gz next to each asset, which the shore server sends to browsers that accept them.
    precompress(),
  ],
  resolve: {
    alias: [
      // Packages are consumed as TypeScript source (no build step); Vite transpiles the .ts on import.
      {
        find: /^@ship-cctv\/protocol$/,
        replacement: fileURLToPath(new URL('../../packages/protocol/src/index.ts', import.meta.url)),
      },
    ],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: shoreServer, changeOrigin: true },
      // The sockets accept pages of the server's own origin only (ALLOWED_ORIGINS): speak as one.
      '/cctvv3-server': { target: shoreServer, changeOrigin: true, ws: true, headers: { origin: shoreServer } },
      // The runtime config is answered by the server, not a file of this app, so forward it too.
      '/monitor/static/config-data.json': { target: shoreServer, changeOrigin: true },
    },
  },
  build: {
    rolldownOptions: {
      // The app takes constants and types from @ship-cctv/protocol, but its index also builds the
      // TypeBox schemas at load time, which would pull TypeBox (~35 kB gzip) into the bundle. Both
      // are free of side effects, and schema values the app does import are still kept.
      treeshake: {
        moduleSideEffects: [
          { test: /packages[\\/]protocol[\\/]src[\\/]/, sideEffects: false },
          { test: /node_modules[\\/]typebox[\\/]/, sideEffects: false },
          // antd's building blocks do not declare `sideEffects: false`, so each barrel kept every module it
          // re-exports (all of @rc-component/form and its validator for the context an Input reads).
          // They have none at load time: the desktop's first screen sheds ~13 KB gzip.
          { test: /node_modules[\\/]@rc-component[\\/]/, sideEffects: false },
        ],
        manualPureFunctions: ['Type'],
      },
      output: {
        // Vendor code changes far less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 2 },
            // The desktop's UI library only: the mobile app (antd-mobile, with the older rc-* packages)
            // and the start-up code (dayjs for the language) must not pull this chunk in.
            // entriesAware: helpers antd shares with the mobile app (Babel's, react-is) go to a chunk of their own.
            { name: 'antd', test: /node_modules[\\/](antd|@ant-design|@rc-component)[\\/]/, priority: 1, entriesAware: true },
          ],
        },
      },
    },
  },
});
