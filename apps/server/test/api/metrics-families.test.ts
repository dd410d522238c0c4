import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, build, scrapeMetrics } from '../helpers/build.ts';

/** The value of one sample line of the scrape, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics: HTTP and sign-in families', () => {
  let t: TestApp;
  beforeAll(async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>t</title>');
    mkdirSync(join(webDist, 'assets'));
    for (const name of ['a-1.js', 'b-2.js', 'c-3.css']) writeFileSync(join(webDist, 'assets', name), `/* ${name} */\n`);
    t = await build({ webDist });
  });
  afterAll(async () => t?.close());

  it('gives every file of the web app one route label, not one per file', async () => {
    for (const name of ['a-1.js', 'b-2.js', 'c-3.css']) expect((await t.app.inject(`/monitor/assets/${name}`)).statusCode).toBe(200);
    const text = await scrapeMetrics(t.app);
    expect(sample(text, 'http_requests_total{method="GET",route="/monitor/*",status="200"}')).toBe(3);
    expect(text).not.toMatch(/route="[^"]*(a-1\.js|b-2\.js|c-3\.css)"/);
  });

  it('counts refused sign-ins by reason, from zero', async () => {
    const before = await scrapeMetrics(t.app);
    expect(sample(before, 'shipcctv_signin_failures_total{reason="wrong_credentials"}')).toBe(0);
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/sys/logon', payload: { username: 'demo', password: 'not-it' } });
      expect(res.statusCode).toBe(401);
    }
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/sys/logon', payload: { username: 'demo' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/sys/logon', payload: { username: 'demo', password: 'demo-pass' } })).statusCode).toBe(200);
    const after = await scrapeMetrics(t.app);
    expect(sample(after, 'shipcctv_signin_failures_total{reason="wrong_credentials"}')).toBe(2);
    expect(sample(after, 'shipcctv_signin_failures_total{reason="bad_request"}')).toBe(1);
    expect(sample(after, 'shipcctv_signin_failures_total{reason="throttled"}')).toBe(0);
  });

  it("has prom-client's process families and the names published before it", async () => {
    const text = await scrapeMetrics(t.app);
    for (const family of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_active_handles_total', 'process_cpu_seconds_total', 'process_start_time_seconds']) {
      expect(text, family).toMatch(new RegExp(`^${family}(\\{[^}]*\\})? \\d`, 'm'));
    }
    expect(text).toMatch(/^# TYPE nodejs_gc_duration_seconds histogram$/m);
    expect(sample(text, 'process_memory_bytes{kind="rss"}')).toBeGreaterThan(10 * 1024 * 1024);
    expect(sample(text, 'process_cpu_seconds{mode="user"}')).toBeGreaterThan(0);
  });
});
