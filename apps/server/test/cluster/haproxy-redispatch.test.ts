import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAPROXY, haproxyConfig } from '../../../../scripts/demo-cluster.mjs';
import { freePort } from './dedicated-redis.ts';

/** A stand-in shore instance: /healthz answers 200, anything else answers its name. */
async function instance(name: string): Promise<{ name: string; port: number; server: Server }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(req.url === '/healthz' ? 'ok' : name);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { name, port: (server.address() as AddressInfo).port, server };
}

describe("the demo cluster's haproxy", () => {
  const cleanups: (() => void)[] = [];
  afterAll(() => {
    for (const c of cleanups.splice(0).reverse()) c();
  });

  it('retries a refused connection on another instance and checks fast', () => {
    const config = haproxyConfig(8080, [
      { name: 'shore-1', port: 8081 },
      { name: 'shore-2', port: 8082 },
    ]);
    const backend = config.slice(config.indexOf('backend instances'));
    expect(backend).toMatch(/^ {2}option redispatch 1$/m);
    expect(backend).toMatch(/^ {2}retries [1-9]$/m);
    expect(backend).toMatch(/^ {2}retry-on conn-failure empty-response$/m);
    expect(backend).toMatch(/^ {2}http-request disable-l7-retry unless METH_GET \|\| METH_HEAD$/m);
    expect(backend).toMatch(/^ {2}default-server .*\bfastinter \d+ms\b/m);
    // Taking an instance out must not cut its sessions: haproxy then also kills a request it is just
    // connecting to that instance (its log says "D---", no retry), which the next test saw once in
    // about 14,000 requests.
    expect(backend).not.toMatch(/shutdown-sessions/);
    expect(backend).toMatch(/^ {2}server shore-1 127\.0\.0\.1:8081 check$/m);
    expect(backend).toMatch(/^ {2}server shore-2 127\.0\.0\.1:8082 check$/m);
  });

  it('a killed instance: the requests that were going to it are answered by the other, none with 503', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const one = await instance('shore-1');
    const two = await instance('shore-2');
    cleanups.push(() => {
      one.server.close();
      two.server.close();
    });
    const port = await freePort();
    const file = join(dir, 'haproxy.cfg');
    writeFileSync(file, haproxyConfig(port, [one, two]));
    const proxy: ChildProcess = spawn(HAPROXY, ['-f', file, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proxy.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    cleanups.push(() => proxy.kill('SIGKILL'));

    const ask = async (): Promise<string> => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5_000) });
        const body = await res.text();
        return res.status === 200 ? body : String(res.status);
      } catch (err) {
        return `error ${(err as Error).message} ${String((err as { cause?: unknown }).cause)}`;
      }
    };
    // Both instances are up and taking requests.
    await expect
      .poll(async () => new Set(await Promise.all(Array.from({ length: 8 }, ask))), { timeout: 10_000, interval: 100 })
      .toEqual(new Set(['shore-1', 'shore-2']));

    // shore-1 dies: its port refuses every new connection from now on.
    one.server.closeAllConnections();
    one.server.close();
    const answers = new Map<string, number>();
    const t0 = Date.now();
    // Requests in four streams for three seconds (haproxy's checks mark the dead one down within that).
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (Date.now() - t0 < 3_000) {
          const a = await ask();
          answers.set(a, (answers.get(a) ?? 0) + 1);
        }
      }),
    );
    const total = [...answers.values()].reduce((x, y) => x + y, 0);
    console.log(`[haproxy] ${total} requests in the 3 s after an instance died: ${JSON.stringify(Object.fromEntries(answers))}`);
    expect(stderr).not.toMatch(/\[ALERT\]/);
    expect(total).toBeGreaterThan(20);
    // Every answer comes from the living instance: no 503, no other status, and no request cut off.
    // A request haproxy sent on a kept-alive connection to the instance as it died gets no answer
    // from it; as a GET it is sent again to the other (`retry-on … empty-response`).
    expect(answers).toEqual(new Map([['shore-2', total]]));
  });
});
