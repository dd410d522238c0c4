import type { LogonData } from '@ship-cctv/protocol';
import { type App, type AppOptions, buildApp } from '../../src/app.ts';
import { DEMO_PASSWORD } from '../../src/core/db/demo-fleet.ts';
import { type DatabaseKind, freshDatabase } from './database.ts';

export interface TestApp {
  app: App;
  close(): Promise<void>;
}

/** Signs the test servers' session tokens (a shared secret, as several instances use). */
export const TEST_JWT_SECRET = 'test-jwt-secret-of-at-least-32-characters';

/** The /metrics token of test servers. */
export const TEST_METRICS_TOKEN = 'test-metrics-token';

/** GET /metrics as a scraper with the test token sees it. */
export async function scrapeMetrics(app: App): Promise<string> {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}: ${res.body}`);
  return res.body;
}

/** A server on a fresh database seeded with the demo fleet, driven through app.inject(). */
export async function build(opts: Partial<AppOptions> & { kind?: DatabaseKind } = {}): Promise<TestApp> {
  const database = await freshDatabase(opts.kind ?? 'pglite', { seeded: opts.seedDemo !== false });
  const app = await buildApp({ seedDemo: true, database, metricsToken: TEST_METRICS_TOKEN, jwtSecret: TEST_JWT_SECRET, ...opts });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export async function logon(app: App, username: string, password = DEMO_PASSWORD): Promise<LogonData> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/sys/logon', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`logon ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json<{ data: LogonData }>().data;
}
