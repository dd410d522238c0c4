import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The shore server a `vite` dev server forwards calls to (`npm start` at the root listens on 8080). */
const shoreServer = 'http://127.0.0.1:8080';

export default defineConfig({
  // The shore server serves the build under /monitor/ (spec §2); dev uses the same base so URLs match.
  base: '/monitor/',
  plugins: [react()],
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
      '/cctvv3-server': { target: shoreServer, changeOrigin: true, ws: true },
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
        ],
        manualPureFunctions: ['Type'],
      },
      output: {
        // Vendor code changes far less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 2 },
            { name: 'antd', test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+|dayjs)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
