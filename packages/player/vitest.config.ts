import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'player',
    include: ['test/**/*.test.ts'],
    // The player drives an HTMLVideoElement; jsdom has one (without media decoding, which the
    // Playwright specs cover in Chromium).
    environment: 'jsdom',
    // Files share a worker's loaded modules (see the root vitest.config.ts).
    isolate: false,
    // Names the test a worker was in if it dies (scripts/vitest/worker-watch.mjs).
    setupFiles: ['../../scripts/vitest/worker-watch.mjs'],
  },
});
