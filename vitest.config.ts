import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files at once. Vitest's own default is one less than the cores, which is one on a 2-core
 * machine; most of these tests wait — on ffmpeg, a real RTSP camera, a ship's emulated link, a
 * database — rather than compute, so every core runs a file, and never fewer than two.
 * TEST_WORKERS sets it.
 */
const maxWorkers = Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism());

export default defineConfig({
  test: {
    maxWorkers,
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
