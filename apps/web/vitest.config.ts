import { defineProject } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default defineProject({
  // Same plugins and aliases as the app build, so tests run the code the browser runs.
  plugins: viteConfig.plugins,
  resolve: viteConfig.resolve,
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // Files share a worker's loaded modules (see the root vitest.config.ts).
    isolate: false,
    // The first names the test a worker was in if it dies (scripts/vitest/worker-watch.mjs).
    setupFiles: ['../../scripts/vitest/worker-watch.mjs', 'src/test/setup.ts'],
  },
});
