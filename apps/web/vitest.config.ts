import { defineProject } from 'vitest/config';
import { workerWatchSetup } from '../../scripts/vitest/worker-watch-paths.mjs';
import viteConfig from './vite.config.ts';

export default defineProject({
  // Same plugins and aliases as the app build, so tests run the code the browser runs.
  plugins: viteConfig.plugins,
  resolve: viteConfig.resolve,
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // Above the 5 s that waitFor and findBy* wait (src/test/setup.ts), so that a condition that
    // never holds fails with its own message rather than the test's time-out.
    testTimeout: 15_000,
    // Files share a worker's loaded modules (see the root vitest.config.ts).
    isolate: false,
    // The first names the test a worker was in if it dies, and notes each file's CPU.
    setupFiles: [workerWatchSetup(), 'src/test/setup.ts'],
  },
});
