import { describe, expect, it, vi } from 'vitest';
import { loadRuntimeConfig, parseRuntimeConfig } from './runtime-config.ts';

const served = {
  version: 'V3.5.26',
  apiBase: '/api/v1',
  stompPath: '/cctvv3-server/cctv/',
  mediaPath: '/cctvv3-server/v3/media',
  httpTimeoutMs: 40000,
  heartbeatMs: 60000,
  defaultLanguage: 'zh-CN',
};

describe('runtime config', () => {
  it('reads /monitor/static/config-data.json', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ...served, extra: true })));
    const config = await loadRuntimeConfig(fetch as unknown as typeof globalThis.fetch);
    expect(fetch).toHaveBeenCalledWith('/monitor/static/config-data.json', expect.anything());
    expect(config).toEqual(served);
  });

  it('rejects a wrong shape or an HTTP failure', async () => {
    expect(() => parseRuntimeConfig({ ...served, httpTimeoutMs: '40000' })).toThrow(/httpTimeoutMs/);
    expect(() => parseRuntimeConfig({ ...served, version: undefined })).toThrow(/version/);
    const fetch = vi.fn(async () => new Response('no', { status: 503 }));
    await expect(loadRuntimeConfig(fetch as unknown as typeof globalThis.fetch)).rejects.toThrow(/503/);
  });
});
