import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
// Every project loads it first: names the test a worker was in if it dies, and notes each file's CPU.
import { workerWatchSetup } from './scripts/vitest/worker-watch-paths.mjs';

/**
 * Test files at once. Vitest's own default is one less than the cores, which is one on a 2-core
 * machine; most of these tests wait — on ffmpeg, a real RTSP camera, a ship's emulated link, a
 * database — rather than compute. On 2 cores: two files at a time kept the CPU busy less than half
 * of the run and four took 277 s instead of 442 s (when the stage was smaller). With 321 files,
 * four left a quarter of the CPU idle (473 s); six took 396 s and 442 s in two runs, and each run
 * failed a test on the load (a timer read against another clock, a jsdom page slower than its
 * wait): the gain is small against the margin lost, so two files per core, and never fewer than
 * two. TEST_WORKERS sets it.
 */
const maxWorkers = Number(process.env.TEST_WORKERS) || Math.max(2, 2 * availableParallelism());

// Every project runs its files with `isolate: false`: the files a worker runs share the modules it
// has loaded (Fastify and the server's modules, React and antd, jsdom) instead of loading them
// again for each file, which took a third of the run's CPU. The tests keep no state in modules
// that another file would see: each builds its own app, database, i18next instance and servers,
// and stops them in its hooks.

export default defineConfig({
  test: {
    maxWorkers,
    reporters: ['default', './scripts/vitest/worker-watch-reporter.mjs'],
    projects: [
      {
        test: {
          name: 'protocol',
          root: './packages/protocol',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          setupFiles: [workerWatchSetup()],
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: [workerWatchSetup()],
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
