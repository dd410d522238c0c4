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
  },
});
