import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from './api-client.ts';

interface Call {
  url: string;
  init: RequestInit;
}

function stubFetch(respond: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(url), init: init ?? {} };
    calls.push(call);
    return respond(call);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const header = (call: Call | undefined, name: string) => new Headers(call?.init.headers).get(name);

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

afterEach(() => {
  document.cookie = 'newOrgToken=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  vi.useRealTimers();
});

describe('api client envelope', () => {
  it('answers data of a {code: 200} envelope and sends JSON to base + path', async () => {
    const { fetch, calls } = stubFetch(() => json({ code: 200, message: 'SUCCESS', data: { token: 't', n: 1 } }));
    const client = createApiClient({ baseUrl: '/api/v1/', timeoutMs: 1000, fetch });
    const data = await client.post<{ token: string }>('/sys/logon', { username: 'demo', password: 'x' });
    expect(data).toEqual({ token: 't', n: 1 });
    expect(calls[0]?.url).toBe('/api/v1/sys/logon');
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.body).toBe('{"username":"demo","password":"x"}');
    expect(header(calls[0], 'content-type')).toBe('application/json');
  });

  it('adds query parameters, leaving out undefined ones', async () => {
    const { fetch, calls } = stubFetch(() => json({ code: 200, message: 'SUCCESS', data: null }));
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    await client.get('/sys/valid/user', { query: { userid: 'u 1', extra: undefined } });
    expect(calls[0]?.url).toBe('/api/v1/sys/valid/user?userid=u+1');
  });

  it('asks a path from the server root (spec §7 /cctvv3-server calls) with the same session handling', async () => {
    const { fetch, calls } = stubFetch(() => json({ code: 401, message: 'Unauthorized', data: null }, 401));
    const ended = vi.fn();
    const relative = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    relative.onSessionEnded(ended);
    await failure(relative.get('/cctvv3-server/v3/vod/query/S1/C1/1/2', { fromRoot: true }));
    expect(calls[0]?.url).toBe('/cctvv3-server/v3/vod/query/S1/C1/1/2');
    expect(ended).toHaveBeenCalledTimes(1);
    const absolute = createApiClient({ baseUrl: 'https://shore.example:8443/api/v1', timeoutMs: 1000, fetch });
    await failure(absolute.get('/cctvv3-server/v3/vod/query/S1/C1/1/2', { fromRoot: true, sessionless: true }));
    expect(calls[1]?.url).toBe('https://shore.example:8443/cctvv3-server/v3/vod/query/S1/C1/1/2');
  });

  it('throws the code and message of a failure envelope, even with HTTP 200', async () => {
    const { fetch } = stubFetch(() => json({ code: 409, message: 'Busy', data: null }, 200));
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    const err = await failure(client.get('/x'));
    expect(err).toMatchObject({ kind: 'envelope', code: 409, message: 'Busy', status: 200 });
    expect(err.unreachable).toBe(false);
    expect(err.reason).toBeUndefined();
  });

  it('keeps the reason of a failure envelope for the view to word, and ignores one it does not know', async () => {
    let body: unknown = { code: 503, message: 'the ship did not answer within 15 s', data: null, reason: 'timeout' };
    const { fetch } = stubFetch(() => json(body, 503));
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    expect(await failure(client.get('/x'))).toMatchObject({ kind: 'envelope', code: 503, reason: 'timeout', message: 'the ship did not answer within 15 s' });
    body = { code: 503, message: 'offline: ship S1001 is offline', data: null, reason: 'struck by lightning' };
    expect((await failure(client.get('/x'))).reason).toBeUndefined();
  });

  it('reports a success status without an envelope as malformed', async () => {
    const { fetch } = stubFetch(() => new Response('<html></html>', { status: 200 }));
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    expect(await failure(client.get('/x'))).toMatchObject({ kind: 'malformed', code: 200 });
  });
});

describe('api client token', () => {
  it('sends the newOrgToken cookie as cas-jwt', async () => {
    document.cookie = 'newOrgToken=abc.def.ghi; path=/';
    const { fetch, calls } = stubFetch(() => json({ code: 200, message: 'SUCCESS', data: 1 }));
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    await client.get('/cctv/heartbeat');
    expect(header(calls[0], 'cas-jwt')).toBe('abc.def.ghi');
  });

  it('sends no cas-jwt header without a token', async () => {
    const { fetch, calls } = stubFetch(() => json({ code: 200, message: 'SUCCESS', data: 1 }));
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    await client.get('/cctv/heartbeat');
    expect(header(calls[0], 'cas-jwt')).toBeNull();
  });
});

describe('api client failures', () => {
  it('on 401 or 402 deletes the token cookie and tells the listeners once', async () => {
    for (const [code, status] of [[401, 401], [402, 200]] as const) {
      document.cookie = 'newOrgToken=abc; path=/';
      const { fetch } = stubFetch(() => json({ code, message: 'ended', data: null }, status));
      const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
      const listener = vi.fn();
      client.onSessionEnded(listener);
      const err = await failure(client.get('/cctv/heartbeat'));
      expect(err.code).toBe(code);
      expect(listener).toHaveBeenCalledTimes(1);
      expect(listener).toHaveBeenCalledWith(err);
      expect(document.cookie).not.toContain('newOrgToken=abc');
    }
  });

  it('leaves the session alone for a sessionless call (401 = wrong password at sign-in)', async () => {
    document.cookie = 'newOrgToken=abc; path=/';
    const { fetch } = stubFetch(() => json({ code: 401, message: 'Wrong user name or password', data: null }, 401));
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    const listener = vi.fn();
    client.onSessionEnded(listener);
    const err = await failure(client.post('/sys/logon', {}, { sessionless: true }));
    expect(err).toMatchObject({ kind: 'envelope', code: 401, message: 'Wrong user name or password' });
    expect(listener).not.toHaveBeenCalled();
    expect(document.cookie).toContain('newOrgToken=abc');
  });

  it('maps an HTTP failure without an envelope (a gateway) to kind http', async () => {
    const { fetch } = stubFetch(() => new Response('Bad Gateway', { status: 502, statusText: 'Bad Gateway' }));
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    const err = await failure(client.get('/x'));
    expect(err).toMatchObject({ kind: 'http', code: 502, message: 'Bad Gateway' });
    expect(err.unreachable).toBe(true);
  });

  it('maps a rejected fetch to kind network with code 0', async () => {
    const { fetch } = stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    const err = await failure(client.get('/x'));
    expect(err).toMatchObject({ kind: 'network', code: 0, message: 'Failed to fetch' });
    expect(err.unreachable).toBe(true);
  });

  it('aborts after the time-out and reports kind timeout', async () => {
    vi.useFakeTimers();
    const { fetch, calls } = stubFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 40_000, fetch });
    const pending = failure(client.get('/x'));
    await vi.advanceTimersByTimeAsync(39_999);
    expect(calls[0]?.init.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ kind: 'timeout', code: 0 });
  });

  it('uses a 40 000 ms time-out by default', async () => {
    const { apiClient } = await import('./api-client.ts');
    vi.useFakeTimers();
    const stub = stubFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    apiClient.configure({ fetch: stub.fetch });
    const pending = failure(apiClient.get('/x'));
    await vi.advanceTimersByTimeAsync(39_999);
    expect(stub.calls[0]?.init.signal?.aborted).toBe(false);
    expect(stub.calls[0]?.url).toBe('/api/v1/x');
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ kind: 'timeout' });
    apiClient.configure({ fetch: undefined });
  });

  it("passes the caller's abort through unchanged", async () => {
    const { fetch } = stubFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch });
    const controller = new AbortController();
    const pending = client.get('/x', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('api client: a 429 over a user’s or a ship’s limit', () => {
  const tooMany = (scope: string) =>
    new Response(JSON.stringify({ code: 429, message: '此船的云台控制请求已达上限，请 3 秒后再试 (the ship has too many PTZ requests; try again in 3 s)', data: null }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '3', 'x-limit-scope': scope },
    });

  it('is worded in the page’s language by describeTooMany, with whose limit and the seconds to wait', async () => {
    let language = 'en';
    const describeTooMany = (scope: 'user' | 'ship', seconds: number) => (language === 'en' ? `${scope} busy, ${seconds} s` : `${scope} 忙，${seconds} 秒`);
    const ship = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch: stubFetch(() => tooMany('ship')).fetch, describeTooMany });
    const err = await failure(ship.get('/x'));
    expect(err).toMatchObject({ code: 429, message: 'ship busy, 3 s' });
    language = 'zh-CN';
    const user = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch: stubFetch(() => tooMany('user')).fetch, describeTooMany });
    expect((await failure(user.get('/x'))).message).toBe('user 忙，3 秒');
  });

  it('keeps the server’s text for a 429 without a limit scope (sign-in attempts)', async () => {
    const client = createApiClient({ baseUrl: '/api/v1', timeoutMs: 1000, fetch: stubFetch(() => json({ code: 429, message: 'Too many sign-in attempts', data: null }, 429)).fetch, describeTooMany: () => 'no' });
    expect((await failure(client.get('/x'))).message).toBe('Too many sign-in attempts');
  });
});
