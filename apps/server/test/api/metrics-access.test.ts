import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, build } from '../helpers/build.ts';

describe('/metrics access', () => {
  let closed: TestApp;
  let open: TestApp;
  beforeAll(async () => {
    closed = await build({ metricsToken: undefined });
    open = await build({ metricsToken: 'scrape-me' });
  });
  afterAll(async () => {
    await closed?.close();
    await open?.close();
  });

  it('is not published without a configured token', async () => {
    const res = await closed.app.inject('/metrics');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('shipcctv_link_bytes_total');
    expect(res.json<{ message: string }>().message).toContain('METRICS_TOKEN');
  });

  it('answers only a scraper with the token', async () => {
    for (const authorization of [undefined, 'Bearer wrong', 'Bearer scrape-m', 'scrape-me']) {
      const res = await open.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).not.toContain('shipcctv_link_bytes_total');
    }
    const ok = await open.app.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-me' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('shipcctv_link_bytes_total');
  });
});
