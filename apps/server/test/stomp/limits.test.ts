import type { IMessage } from '@stomp/stompjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { StompServerOptions } from '../../src/core/bus/stomp-server.ts';
import type { IncomingMessage } from 'node:http';
import { Inbox, type Principal, RawClient, type TestStomp, connected, observe, startStomp, stompClient, subscribe } from './helpers.ts';

/** Busy for `ms` on the main thread, as a query of the embedded database is. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

describe('STOMP limits per connection and per user', () => {
  let server: TestStomp | undefined;
  const start = async (opts: Partial<StompServerOptions<Principal, IncomingMessage>> = {}) => {
    server = await startStomp(opts);
    return server;
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a user has at most maxSubscriptionsPerPrincipal over all connections; others are not affected, and closing gives them back', async () => {
    const s = await start({ maxSubscriptionsPerPrincipal: 4, principalKey: (p) => p.name });
    const first = stompClient(s.url);
    await connected(first);
    const inbox = new Inbox<IMessage>();
    for (let i = 0; i < 3; i++) await subscribe(first, `/public/${i}`, inbox);

    const second = stompClient(s.url);
    const seen = observe(second);
    await seen.connected;
    await subscribe(second, '/public/3', inbox);
    second.subscribe('/public/4', () => {});
    expect((await seen.errors.next()).headers.message).toBe('Too many subscriptions: at most 4 per user over all connections');
    await seen.closes.next();

    // Another user is not counted with alice.
    const bob = stompClient(s.url, { connectHeaders: { login: '', passcode: 'token-bob' } });
    await connected(bob);
    for (let i = 0; i < 4; i++) await subscribe(bob, `/public/b${i}`, inbox);

    // The second connection's subscription went with it: alice has 3, may take a fourth.
    const third = stompClient(s.url);
    await connected(third);
    await subscribe(third, '/public/5', inbox);
    expect(s.stomp.subscriberCount('/public/5')).toBe(1);
    await Promise.all([first.deactivate(), third.deactivate(), bob.deactivate()]);
  });

  it('a connection sending more frames than its burst gets an ERROR saying why and is closed (1008); a burst within it is served', async () => {
    const s = await start({ frameBurst: 10, framesPerSecond: 1 });
    const ok = await RawClient.open(s.url);
    expect((await ok.connect()).command).toBe('CONNECTED');
    let frames = '';
    for (let i = 0; i < 8; i++) frames += `SUBSCRIBE\nid:${i}\ndestination:/public/${i}\n${i === 7 ? 'receipt:r\n' : ''}\n\0`;
    ok.send(frames);
    expect((await ok.frames.next()).command).toBe('RECEIPT');

    const flood = await RawClient.open(s.url);
    expect((await flood.connect()).command).toBe('CONNECTED');
    frames = '';
    for (let i = 0; i < 30; i++) frames += `SUBSCRIBE\nid:${i}\ndestination:/public/${i}\n\n\0`;
    flood.send(frames);
    const error = await flood.frames.next();
    expect(error.command).toBe('ERROR');
    expect(error.headers.message).toBe('Too many frames: at most 10 at once and 1 a second');
    expect(await flood.closed).toBe(1008);
    expect(ok.ws.readyState).toBe(ok.ws.OPEN);
    ok.ws.close();
  });

  it('many SUBSCRIBE frames whose checks hold the main thread take turns with timers and the network', async () => {
    const CONNECTIONS = 4;
    const PER_CONNECTION = 100;
    const CHECK_MS = 2;
    const s = await start({
      // A check that never yields (the embedded database's queries chain in microtasks).
      authorizeSubscribe: async () => {
        busy(CHECK_MS);
        return true;
      },
    });
    const clients = await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        const c = await RawClient.open(s.url);
        expect((await c.connect()).command).toBe('CONNECTED');
        return c;
      }),
    );
    let last = performance.now();
    let maxGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 5);
    const t0 = performance.now();
    try {
      await Promise.all(
        clients.map(async (c) => {
          let frames = '';
          for (let i = 0; i < PER_CONNECTION; i++) frames += `SUBSCRIBE\nid:${i}\ndestination:/public/${i}\n${i === PER_CONNECTION - 1 ? 'receipt:done\n' : ''}\n\0`;
          c.send(frames);
          expect((await c.frames.next(30_000)).command).toBe('RECEIPT');
        }),
      );
    } finally {
      clearInterval(ticker);
    }
    const took = performance.now() - t0;
    // The checks alone took this long on the main thread; no timer waited for all of them.
    expect(took).toBeGreaterThanOrEqual(CONNECTIONS * PER_CONNECTION * CHECK_MS);
    expect(maxGap).toBeLessThan(took / 3);
    for (const c of clients) c.ws.close();
  });
});
