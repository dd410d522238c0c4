import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'agent',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Files share a worker's loaded modules (see the root vitest.config.ts).
    isolate: false,
    // Names the test a worker was in if it dies (scripts/vitest/worker-watch.mjs).
    setupFiles: ['../../scripts/vitest/worker-watch.mjs'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
