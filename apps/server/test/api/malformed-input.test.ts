import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_HEADER } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';

/**
 * Every registered route, fed the input that once reached the database or the number parser
 * unchecked: NUL bytes, Infinity, numbers past the database's integer range, huge texts. Each
 * must be answered, never with a 5xx.
 */

const NOW = Date.now();
/** Values that pass validation, so that the one bad field is what reaches deeper code. */
const GOOD: Record<string, unknown> = {
  id: 'S1001',
  shipId: 'S1001',
  orgId: 'blueocean',
  orgID: 'blueocean',
  orgName: '蓝海航运',
  cameraId: 'S1001-C1',
  userid: 'u-demo',
  username: 'demo',
  password: 'demo-pass',
  name: 'Bridge',
  ships: 'S1001',
  page: 1,
  size: 10,
  start: NOW - 3_600_000,
  end: NOW,
  shipIds: ['S1001'],
  enabled: true,
  mode: 'always',
};

/** Bad values as they appear in a URL (params and query). */
const BAD_URL_VALUES = ['\u0000', 'S1001\u0000', 'Infinity', '-Infinity', '1e309', '1e20', '-1e20', 'NaN', '9'.repeat(400)];
/** Bad values as raw JSON text (JSON.parse turns 1e309 into Infinity). */
const BAD_JSON_VALUES = ['"\\u0000"', '"a\\u0000b"', '1e309', '-1e309', '1e20', '-1e20', '1.5', `"${'x'.repeat(70_000)}"`, '{}', '[]'];

interface Case {
  method: string;
  url: string;
  payload?: string;
  label: string;
}

function fieldNames(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const properties = (schema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

function fill(template: string, params: Record<string, string>): string {
  return template.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? String(GOOD[name] ?? 'x')));
}

function casesFor(method: string, url: string, schema: Record<string, unknown> | undefined): Case[] {
  const paramNames = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');
  const queryNames = fieldNames(schema?.querystring);
  const bodyNames = fieldNames(schema?.body);
  const goodQuery = Object.fromEntries(queryNames.map((n) => [n, String(GOOD[n] ?? 'x')]));
  const goodBody = Object.fromEntries(bodyNames.map((n) => [n, GOOD[n] ?? 'x']));
  const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const body = (override?: [string, string]): string | undefined => {
    if (!withBody) return undefined;
    const parts = Object.entries(goodBody).filter(([k]) => k !== override?.[0]).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    if (override) parts.push(`${JSON.stringify(override[0])}:${override[1]}`);
    return `{${parts.join(',')}}`;
  };
  const query = (q: Record<string, string>) => (Object.keys(q).length ? `?${new URLSearchParams(q).toString()}` : '');
  const cases: Case[] = [];
  for (const bad of BAD_URL_VALUES) {
    for (const p of paramNames) {
      const c: Case = { method, url: fill(url, { [p]: bad }) + query(goodQuery), label: `param ${p}=${JSON.stringify(bad.slice(0, 20))}` };
      const b = body();
      if (b !== undefined) {
        c.payload = b;
        cases.push({ ...c, payload: '{}', label: `${c.label}, empty body` });
      }
      cases.push(c);
    }
    for (const q of queryNames) {
      cases.push({ method, url: fill(url, {}) + query({ ...goodQuery, [q]: bad }), label: `query ${q}=${JSON.stringify(bad.slice(0, 20))}` });
    }
  }
  for (const bad of BAD_JSON_VALUES) {
    for (const f of bodyNames) {
      const payload = body([f, bad]);
      if (payload === undefined) continue;
      cases.push({ method, url: fill(url, {}) + query(goodQuery), payload, label: `body ${f}=${bad.slice(0, 20)}` });
      // The bad field alone: other fields' checks (a camera that does not exist) must not hide it.
      cases.push({ method, url: fill(url, {}) + query(goodQuery), payload: `{${JSON.stringify(f)}:${bad}}`, label: `only body ${f}=${bad.slice(0, 20)}` });
    }
  }
  if (withBody) cases.push({ method, url: fill(url, {}) + query(goodQuery), payload: '{"a":"\u0000"', label: 'broken JSON' });
  return cases;
}

describe.each(['pglite', 'postgres'] as const)('malformed input over every route (%s)', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    // Every logon case must reach the route, not the per-address limit.
    t = await build({ kind, logonPerAddressPerMinute: 100_000 });
    token = (await logon(t.app, 'demo')).token;
  });
  afterAll(async () => t?.close());

  // Thousands of requests one after another, more with every route: minutes on a loaded machine.
  it('answers every case without a 5xx', { timeout: 180_000 }, async () => {
    const cases: Case[] = [];
    for (const route of t.app.registeredRoutes) {
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
      for (const method of methods) cases.push(...casesFor(method, route.url, route.schema as Record<string, unknown> | undefined));
    }
    expect(cases.length).toBeGreaterThan(300);
    const failures: string[] = [];
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.method as 'GET',
        url: c.url,
        headers: { [TOKEN_HEADER]: token, 'content-type': 'application/json' },
        ...(c.payload === undefined ? {} : { payload: c.payload }),
      });
      if (res.statusCode >= 500) failures.push(`${c.method} ${c.url.slice(0, 120)} (${c.label}) → ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('says what is wrong with a NUL byte or a number out of range', async () => {
    const nul = await t.app.inject({ url: '/api/v1/cctv/monitor/getChannel/S1001%00', headers: { [TOKEN_HEADER]: token } });
    expect(nul.statusCode).toBe(400);
    expect(nul.json<{ message: string }>().message).toMatch(/NUL|control character/i);
    const huge = await t.app.inject({ url: `/cctvv3-server/v3/vod/query/S1001/S1001-C1/1e20/${NOW}`, headers: { [TOKEN_HEADER]: token } });
    expect(huge.statusCode).toBe(400);
    const inf = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cctv/record/complexQuery/1/Infinity',
      headers: { [TOKEN_HEADER]: token, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(inf.statusCode).toBe(400);
    const logonNul = await t.app.inject({ method: 'POST', url: '/api/v1/sys/logon', payload: { username: 'demo\u0000', password: 'x' } });
    expect(logonNul.statusCode).toBe(400);
  });
});
