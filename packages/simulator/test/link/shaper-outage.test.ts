import { afterEach, describe, expect, it } from 'vitest';
import { PROFILES } from '../../src/link/index.ts';
import { closeAll, connect, readBytes, sleep, startServer, startShaper, testProfile, until, waitFor } from './helpers.ts';

afterEach(closeAll);

describe('LinkShaper outages', () => {
  it('holds data during an outage, including data already propagating, and delivers it after', async () => {
    let received = 0;
    const sink = await startServer((s) => s.on('data', (c: Buffer) => (received += c.length)));
    const profile = testProfile({ oneWayDelayMs: 200 });
    const shaper = await startShaper({ profile, targetPort: sink.port });
    const client = await connect(shaper.port);
    await until(() => sink.sockets.length === 1);

    client.write(Buffer.alloc(1_000, 1)); // on its way, due in 200 ms
    await sleep(50);
    shaper.setOutage(true);
    client.write(Buffer.alloc(500, 2)); // waits to be serialised
    await sleep(400);

    expect(shaper.isDown).toBe(true);
    expect(received).toBe(0);
    expect(shaper.bytes.up).toBe(0);

    const restoredAt = performance.now();
    shaper.setOutage(false);
    await until(() => received >= 1_000);
    // Held bytes, even those that were nearly there, cross the link again once it is back: one delay.
    expect(performance.now() - restoredAt).toBeGreaterThanOrEqual(200 - 2);
    await until(() => received === 1_500);
    // A short outage leaves the connection up.
    expect(client.destroyed).toBe(false);
    expect(shaper.connectionCount).toBe(1);
    expect(shaper.bytes.up).toBe(1_500);
  });

  it('drops every connection when an outage outlasts dropAfterMs, refuses new ones, and recovers', async () => {
    const echo = await startServer();
    const shaper = await startShaper({ profile: testProfile({}), targetPort: echo.port, dropAfterMs: 300 });
    const drops: number[] = [];
    shaper.on('drop', (n: number) => drops.push(n));
    const a = await connect(shaper.port);
    const b = await connect(shaper.port);
    a.write('hello');
    expect((await readBytes(a, 5)).toString()).toBe('hello');
    await until(() => echo.sockets.length === 2);

    const t0 = performance.now();
    shaper.setProfile(PROFILES.OFFLINE);
    await Promise.all([waitFor(a, 'close'), waitFor(b, 'close')]);

    expect(performance.now() - t0).toBeGreaterThanOrEqual(300 - 2);
    expect(drops).toEqual([2]);
    expect(shaper.isRefusing).toBe(true);
    expect(shaper.connectionCount).toBe(0);
    // The shore side sees its connections go too.
    await until(() => echo.sockets.every((s) => s.destroyed || s.readableEnded));

    // While the link stays down, a new connection is accepted and closed at once; shore never sees it.
    const refused = await connect(shaper.port);
    await waitFor(refused, 'close');
    expect(echo.sockets.length).toBe(2);

    shaper.setProfile(testProfile({}));
    expect(shaper.isRefusing).toBe(false);
    const c = await connect(shaper.port);
    c.write('back');
    expect((await readBytes(c, 4)).toString()).toBe('back');
    expect(echo.sockets.length).toBe(3);
  });

  it('an outage shorter than dropAfterMs drops nothing', async () => {
    const echo = await startServer();
    const shaper = await startShaper({ profile: testProfile({}), targetPort: echo.port, dropAfterMs: 300 });
    const client = await connect(shaper.port);
    shaper.setOutage(true);
    await sleep(150);
    shaper.setOutage(false);
    await sleep(300); // past the drop time measured from the outage start

    expect(client.destroyed).toBe(false);
    client.write('still here');
    expect((await readBytes(client, 10)).toString()).toBe('still here');
  });

  it('does not open the shore side while OFFLINE, and opens it when the link comes up', async () => {
    const echo = await startServer();
    const shaper = await startShaper({ profile: PROFILES.OFFLINE, targetPort: echo.port, dropAfterMs: 10_000 });
    const client = await connect(shaper.port);
    client.write('queued while offline');
    await sleep(150);

    expect(echo.sockets.length).toBe(0);
    expect(shaper.stats('up').queuedBytes).toBe(20);

    shaper.setProfile(testProfile({ oneWayDelayMs: 10 }));
    expect((await readBytes(client, 20)).toString()).toBe('queued while offline');
    expect(echo.sockets.length).toBe(1);
  });
});
