import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, build } from '../helpers/build.ts';

/** A JavaScript asset as the web build leaves it: the file, and its .br and .gz next to it. */
const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "ship ${i}" }`).join(', ')}];\n`;

describe('web app assets, pre-compressed at build time', () => {
  let t: TestApp;
  beforeAll(async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>t</title><script type="module" src="/monitor/assets/app-1.js"></script>');
    mkdirSync(join(webDist, 'assets'));
    const asset = join(webDist, 'assets', 'app-1.js');
    writeFileSync(asset, SCRIPT);
    writeFileSync(`${asset}.br`, brotliCompressSync(SCRIPT));
    writeFileSync(`${asset}.gz`, gzipSync(SCRIPT));
    // An asset the build did not compress (too small): served as it is whatever the browser accepts.
    writeFileSync(join(webDist, 'assets', 'tiny-1.js'), 'export {};\n');
    t = await build({ webDist });
  });
  afterAll(async () => t?.close());

  it('sends the brotli file to a browser that accepts br, with the type of the script and its bytes', async () => {
    const res = await t.app.inject({ url: '/monitor/assets/app-1.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip file to a browser that accepts only gzip', async () => {
    const res = await t.app.inject({ url: '/monitor/assets/app-1.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the file itself without Accept-Encoding, and when there is no compressed copy', async () => {
    const plain = await t.app.inject({ url: '/monitor/assets/app-1.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toContain('immutable');
    const tiny = await t.app.inject({ url: '/monitor/assets/tiny-1.js', headers: { 'accept-encoding': 'br' } });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};\n');
  });

  it('still answers index.html for the app routes, and 404 for a missing asset', async () => {
    const page = await t.app.inject({ url: '/monitor/live/index', headers: { 'accept-encoding': 'br' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('app-1.js');
    expect(page.headers['cache-control']).toBe('no-cache');
    const missing = await t.app.inject({ url: '/monitor/assets/gone-1.js', headers: { 'accept-encoding': 'br' } });
    expect(missing.statusCode).toBe(404);
  });
});
