import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'media',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Files share a worker's loaded modules (see the root vitest.config.ts).
    isolate: false,
  },
});
