import { defineProject } from 'vitest/config';
import { workerWatchSetup } from '../../scripts/vitest/worker-watch-paths.mjs';

export default defineProject({
  test: {
    name: 'player',
    include: ['test/**/*.test.ts'],
    // The player drives an HTMLVideoElement; jsdom has one (without media decoding, which the
    // Playwright specs cover in Chromium).
    environment: 'jsdom',
    // Files share a worker's loaded modules (see the root vitest.config.ts).
    isolate: false,
    // Names the test a worker was in if it dies, and notes each file's CPU.
    setupFiles: [workerWatchSetup()],
  },
});
