import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, build } from '../helpers/build.ts';

/**
 * The API documentation (Swagger UI at /docs) answers with a Content-Security-Policy that still
 * lets it load: its page has no inline script, and every script and stylesheet it names comes from
 * this origin and answers 200 under the same policy.
 */
describe('/docs Content-Security-Policy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(async () => t?.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('gives the page, its assets and its document a CSP that allows only same-origin scripts', async () => {
    const page = await get('/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|https:)/);

    // Every script is a file of this origin (none inline, which the policy would block).
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="[^"]+"/);
      expect(body?.trim()).toBe('');
    }
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1] as string, 'http://shore/docs/').pathname);
    expect(assets).toEqual(expect.arrayContaining(['/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-initializer.js', '/docs/static/swagger-ui.css']));
    for (const asset of [...assets, '/docs/json']) {
      const res = await get(asset);
      expect(res.statusCode, asset).toBe(200);
      expect(res.headers['content-security-policy'], asset).toBe(csp);
    }
    // The validator badge (an image from validator.swagger.io) is off.
    expect((await get('/docs/static/swagger-initializer.js')).body).toMatch(/"validatorUrl":\s*null/);
  });

  it('leaves the rest of the API without it', async () => {
    expect((await get('/healthz')).headers['content-security-policy']).toBeUndefined();
  });
});
