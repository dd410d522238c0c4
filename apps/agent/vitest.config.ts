import { defineProject } from 'vitest/config';
import { workerWatchSetup } from '../../scripts/vitest/worker-watch-paths.mjs';

export default defineProject({
  test: {
    name: 'agent',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Files share a worker's loaded modules (see the root vitest.config.ts).
    isolate: false,
    // Names the test a worker was in if it dies, and notes each file's CPU.
    setupFiles: [workerWatchSetup()],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
