import { defineConfig } from '@playwright/test';

// Its own port, so it can run next to the root e2e run (18080).
const PORT = Number(process.env.PLAYER_E2E_PORT ?? 18190);
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  forbidOnly: !!process.env.CI,
  // One at a time: the minute-long run counts frames a second, and the B-frame cameras' encoders
  // beside it on two CPUs cost it ~1 % of them (703 of the 708 it asks for, once).
  fullyParallel: true,
  workers: 1,
  reporter: 'list',
  use: {
    baseURL,
    headless: true,
    // No trace unless asked (see the app's playwright.config.ts: a trace doubles Chromium's CPU).
    trace: (process.env.E2E_TRACE ?? 'off') as 'off',
    launchOptions: {
      // Debian's Chromium headless shell, as for the app's suite (its playwright.config.ts says why);
      // Playwright's own browsers are not downloaded on this machine.
      executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium-headless-shell',
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
  projects: [{ name: 'chromium', use: { viewport: { width: 800, height: 450 } } }],
  webServer: {
    // Runs from this folder (the config's); tsx resolves from the root node_modules.
    command: 'node --import tsx e2e/harness/server.ts',
    env: { PORT: String(PORT) },
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
