import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 18080);

/**
 * Lanes: E2E_WORKERS workers, each with a demo stack of its own — a shore server with its own
 * database and simulated fleet on port E2E_PORT + lane — so that specs which sign the demo users in
 * and out, change an organisation's budgets or policies, or watch a ship's uplink never meet each
 * other's. A lane (its browser decoding video, its server and fleet encoding it) keeps a little
 * more than one core busy, and much of a spec waits on real time (a ship's link, a recording's
 * segment, a carousel page): with one lane on this 2-core machine the CPU was 45 % idle through the
 * stage (12.5 min). Two lanes took 6.7–9.4 min with the CPU 10 % idle, but reach a run queue of
 * 10–30 for tens of seconds, and two of four such runs failed specs on it: a PTZ picture taken
 * before the move reached the screen and a statistics panel 5 s late (both now fixed), then a
 * settings menu clicked mid-animation. Until those races are gone, one lane per two cores. A
 * worker's lane is its parallel index; the runner and every worker load this file, and in a worker
 * TEST_PARALLEL_INDEX is already set when it does.
 */
const LANES = Number(process.env.E2E_WORKERS) || Math.max(1, Math.floor(availableParallelism() / 2));
const lane = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const baseURL = `http://127.0.0.1:${PORT + lane}`;

// A fresh database per run. Only the first load (the runner) makes the folder and removes it on
// exit; the workers inherit its path. Each lane keeps its data in `lane-<n>` under it. Set
// E2E_DATA_DIR to keep the data of a run for a look afterwards.
let dataDir = process.env.E2E_DATA_DIR;
if (!dataDir) {
  const made = mkdtempSync(join(tmpdir(), 'ship-cctv-e2e-'));
  dataDir = made;
  process.env.E2E_DATA_DIR = made;
  process.on('exit', () => rmSync(made, { recursive: true, force: true }));
}
/** Where lane `n`'s server and fleet keep their data (the talk spec reads the fleet's files). */
export const laneDataDir = (n: number) => join(dataDir, `lane-${n}`);

/**
 * The browser: Debian's Chromium headless shell (package chromium-headless-shell), the same engine,
 * media stack and codecs as /usr/bin/chromium without the full browser's window machinery. On this
 * 2-core machine, where the suite is bound by its CPU, the same nine picture and grid specs took
 * 109 s in it against 137 s in the full browser. E2E_CHROMIUM names another binary (e.g.
 * /usr/bin/chromium, to look at a difference).
 */
const E2E_CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium-headless-shell';

/** Specs of the mobile app run only in the phone projects, and only they run there. */
const MOBILE_SPECS = /mobile[^/]*\.spec\.ts$/;
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  forbidOnly: !!process.env.CI,
  // The CI log reads the list reporter's lines, and under a failed test what the page showed.
  reporter: [['list'], ['./e2e/failure-context-reporter.ts']],
  // How long an assertion waits for its condition (Playwright's default is 5 s). Two lanes' videos,
  // encoders and analysis at once reached a run queue of 10–30 on this 2-core machine for tens of
  // seconds, and the statistics panel once showed 5 s after its click. A condition that holds
  // passes as soon as it does; one that never holds still fails.
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    headless: true,
    // Operators are in China: without a language cookie the app follows the browser language.
    locale: 'zh-CN',
    // No trace unless asked (E2E_TRACE=retain-on-failure, for a look at a failure on this
    // machine): recording one takes a screenshot of every frame the page paints, which doubled
    // Chromium's CPU in the specs that play video (46 CPU-seconds against 22 for the four-cell
    // grid) on a lane that is bound by its two cores; a CI log keeps no trace anyway.
    trace: (process.env.E2E_TRACE ?? 'off') as 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's chromium; Playwright's own browsers are not downloaded on this machine.
      executablePath: E2E_CHROMIUM,
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
    { name: 'desktop', testIgnore: MOBILE_SPECS, use: { viewport: { width: 1440, height: 900 } } },
    // Phones (spec §1: the user agent picks the mobile app): 390×844 with touch, iOS and Android.
    { name: 'mobile-iphone', testMatch: MOBILE_SPECS, use: { ...PHONE, userAgent: IPHONE_UA } },
    { name: 'mobile-android', testMatch: MOBILE_SPECS, use: { ...PHONE, userAgent: ANDROID_UA } },
  ],
  workers: LANES,
  webServer: Array.from({ length: LANES }, (_, n) => ({
    // What a user runs: the shore server and the simulated fleet behind emulated satellite links.
    command: 'node scripts/demo.mjs',
    // S1001, the ship most specs watch, S1002 (the carousel spec's second ship), S1003 (on FBB: the
    // stills spec), S2001 (on Iridium: the watching-limit spec) and S2002 (the ship without a default
    // template, played by the grid and phone specs) keep their first link, without its outages,
    // instead of meeting their scheduled or random outages during the run; the other ships follow their schedules. CAROUSEL_SECONDS lets the carousel spec turn pages in seconds instead of minutes.
    env: {
      PORT: String(PORT + n),
      DATA_DIR: laneDataDir(n),
      LOG_LEVEL: 'warn',
      FLEET_STEADY_SHIPS: 'S1001,S1002,S1003,S2001,S2002',
      CAROUSEL_SECONDS: '1',
      // One analysed camera (S1001's first, which the events specs read) instead of the demo's two:
      // the analysis costs a lane about an eighth of a core all the time.
      FLEET_EVENTS: '1',
    },
    url: `http://127.0.0.1:${PORT + n}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    // SIGTERM lets the server close its embedded database cleanly.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
  })),
});
