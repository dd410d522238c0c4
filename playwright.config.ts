import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 18080);
const baseURL = `http://127.0.0.1:${PORT}`;

// A fresh database per run. The runner and every worker load this file; only the first load (the
// runner) makes the folder and removes it on exit, the workers inherit its path. Set E2E_DATA_DIR
// to keep the data of a run for a look afterwards.
let dataDir = process.env.E2E_DATA_DIR;
if (!dataDir) {
  const made = mkdtempSync(join(tmpdir(), 'ship-cctv-e2e-'));
  dataDir = made;
  process.env.E2E_DATA_DIR = made;
  process.on('exit', () => rmSync(made, { recursive: true, force: true }));
}

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  forbidOnly: !!process.env.CI,
  // The CI log reads the list reporter's lines.
  reporter: 'list',
  use: {
    baseURL,
    headless: true,
    // Operators are in China: without a language cookie the app follows the browser language.
    locale: 'zh-CN',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's chromium; Playwright's own browsers are not downloaded on this machine.
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1440, height: 900 } } },
    // A 'mobile' project (phone user agent and viewport, spec §2 mobile routes) joins here.
  ],
  webServer: {
    // What a user runs: the shore server and the simulated fleet behind emulated satellite links.
    command: 'node scripts/demo.mjs',
    env: { PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // SIGTERM lets the server close its embedded database cleanly.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
