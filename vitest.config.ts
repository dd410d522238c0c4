import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'protocol',
          root: './packages/protocol',
          include: ['test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      './apps/web/vitest.config.ts',
      './apps/agent/vitest.config.ts',
      './packages/player/vitest.config.ts',
      './packages/media/vitest.config.ts',
      './packages/simulator/vitest.config.ts',
      // Real shore servers and ship agents together (tests/integration/README.md).
      './tests/integration/vitest.config.ts',
    ],
  },
});
