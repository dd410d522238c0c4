import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '@ship-cctv/protocol';
import { originAllowed } from '../../src/core/http/websocket-origin.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';

/** Opens a socket and resolves with the HTTP status of a refused upgrade, or 101. */
function upgrade(url: string, headers: Record<string, string>, protocols?: string[]): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.on('open', () => {
      ws.terminate();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => undefined);
  });
}

describe('web hardening', () => {
  let t: TestApp;
  let base: string;
  let host: string;
  beforeAll(async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>t</title>');
    t = await build({ webDist, trustProxy: true });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    host = `127.0.0.1:${address.port}`;
    base = `ws://${host}`;
  });
  afterAll(async () => t?.close());

  it('the web app gets a CSP that forbids framing, and every answer nosniff and no referrer', async () => {
    const page = await t.app.inject({ url: '/monitor/live' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    for (const res of [page, await t.app.inject('/healthz'), await t.app.inject('/api/v1/cctv/heartbeat')]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('the token cookie is Secure behind a trusted TLS proxy, and not on plain HTTP', async () => {
    const payload = { username: 'demo', password: 'demo-pass' };
    const viaTls = await t.app.inject({ method: 'POST', url: '/api/v1/sys/logon', payload, headers: { 'x-forwarded-proto': 'https' } });
    expect(String(viaTls.headers['set-cookie'])).toMatch(/; Secure/);
    const plain = await t.app.inject({ method: 'POST', url: '/api/v1/sys/logon', payload });
    expect(String(plain.headers['set-cookie'])).not.toMatch(/; Secure/);
  });

  it('STOMP and media sockets refuse a page of another origin and accept their own', async () => {
    const { token } = await logon(t.app, 'demo');
    const media = `${base}${PATHS.media}?token=${encodeURIComponent(token)}`;
    const stomp = `${base}${PATHS.stomp}`;
    expect(await upgrade(media, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgrade(stomp, { origin: 'https://evil.example' }, ['v12.stomp'])).toBe(403);
    expect(await upgrade(media, { origin: `http://${host}` })).toBe(101);
    expect(await upgrade(stomp, { origin: `http://${host}` }, ['v12.stomp'])).toBe(101);
    // A client that is no browser sends no Origin and brings its own token.
    expect(await upgrade(media, {})).toBe(101);
  });

  it('every upgrade is checked, whatever its path: percent-encoded STOMP and media paths refuse a foreign page too', async () => {
    const { token } = await logon(t.app, 'demo');
    // The router decodes these to the STOMP and media routes.
    const stomp = `${base}/cctvv3-server/%63ctv/`;
    const media = `${base}/cctvv3-server/v3/%6Dedia?token=${encodeURIComponent(token)}`;
    expect(await upgrade(stomp, { origin: 'https://evil.example' }, ['v12.stomp'])).toBe(403);
    expect(await upgrade(media, { origin: 'https://evil.example' })).toBe(403);
    // A path no socket lives at is refused for the foreign page before routing, too.
    expect(await upgrade(`${base}/cctvv3-server/%61gent-link`, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgrade(stomp, { origin: `http://${host}` }, ['v12.stomp'])).toBe(101);
    expect(await upgrade(media, { origin: `http://${host}` })).toBe(101);
    // The ship agents' link: no browser, no Origin.
    expect(await upgrade(`${base}${PATHS.agentLink}`, {})).not.toBe(403);
  });

  it('ALLOWED_ORIGINS opens the sockets to the pages it names, and only to them, on encoded paths as well', async () => {
    const other = await build({ allowedOrigins: ['https://ops.example'] });
    try {
      await other.app.listen({ port: 0, host: '127.0.0.1' });
      const address = other.app.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      const otherBase = `ws://127.0.0.1:${address.port}`;
      const { token } = await logon(other.app, 'demo');
      for (const path of [PATHS.stomp, '/cctvv3-server/%63ctv/']) {
        expect(await upgrade(`${otherBase}${path}`, { origin: 'https://ops.example' }, ['v12.stomp'])).toBe(101);
        expect(await upgrade(`${otherBase}${path}`, { origin: 'https://evil.example' }, ['v12.stomp'])).toBe(403);
      }
      for (const path of [PATHS.media, '/cctvv3-server/v3/%6Dedia']) {
        const url = `${otherBase}${path}?token=${encodeURIComponent(token)}`;
        expect(await upgrade(url, { origin: 'https://ops.example' })).toBe(101);
        expect(await upgrade(url, { origin: 'https://evil.example' })).toBe(403);
      }
    } finally {
      await other.close();
    }
  });

  it('configured origins replace the same-host rule', () => {
    expect(originAllowed('https://ops.example', 'shore:8080', ['https://ops.example'])).toBe(true);
    expect(originAllowed('http://shore:8080', 'shore:8080', ['https://ops.example'])).toBe(false);
    expect(originAllowed('http://shore:8080', 'shore:8080', [])).toBe(true);
    expect(originAllowed('null', 'shore:8080', [])).toBe(false);
  });
});
