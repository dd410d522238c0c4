import { Writable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '@ship-cctv/protocol';
import * as t from '../../src/core/db/schema.ts';
import { CLOSE_TOO_MANY_MESSAGES, MEDIA_SOCKET_LIMITS } from '../../src/modules/viewer/viewer-session.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';

interface Received {
  type: string;
  state?: string;
  code?: string;
  message?: string;
}

/** A media socket that records what it is told and how it closed. */
class MediaClient {
  readonly ws: WebSocket;
  readonly messages: Received[] = [];
  closed: { code: number; reason: string } | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(port: number, token: string) {
    this.ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.media}?token=${encodeURIComponent(token)}`, { perMessageDeflate: false });
    this.ws.on('message', (data, isBinary) => {
      if (!isBinary) this.messages.push(JSON.parse(String(data)) as Received);
      this.wake();
    });
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    this.ws.on('error', () => undefined);
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
  }

  /** Waits (up to 20 s) for a condition on what arrived. */
  until(what: string, cond: () => boolean): Promise<void> {
    if (cond()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages)} closed ${JSON.stringify(this.closed)}`));
      }, 20_000);
      const check = () => {
        if (!cond()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

describe('media socket limits', () => {
  let app: TestApp;
  let port: number;
  let token: string;
  let cameras: string[];
  let logs = '';
  /** Play requests that reached the live service's access check. */
  let resolved: string[] = [];
  /** While set, the access check waits for it (a slow database). */
  let hold: Promise<void> | undefined;

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs += chunk.toString();
        done();
      },
    });
    app = await build({ logger: { level: 'info', stream } });
    const rows = await app.app.database.db
      .select({ id: t.cameras.id })
      .from(t.cameras)
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .where(eq(t.channels.shipId, 'S1001'))
      .orderBy(asc(t.channels.sort), asc(t.cameras.sort));
    cameras = rows.map((r) => r.id);
    const live = app.app.live;
    const resolve = live.resolve.bind(live);
    live.resolve = async (access, cameraId, templateId, on) => {
      resolved.push(cameraId);
      await hold;
      return resolve(access, cameraId, templateId, on);
    };
    token = (await logon(app.app, 'demo')).token;
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
  });
  afterAll(async () => app?.close());

  it('a burst of plays on one socket resolves the one under way and the newest only, and plays the newest', async () => {
    resolved = [];
    const client = new MediaClient(port, token);
    await client.opened();
    const burst = MEDIA_SOCKET_LIMITS.burst - 10;
    const last = cameras[(burst - 1) % cameras.length] ?? '';
    let release = () => {};
    hold = new Promise((r) => (release = r));
    for (let i = 0; i < burst; i++) client.ws.send(JSON.stringify({ type: 'play', mode: 'live', cameraId: cameras[i % cameras.length] }));
    // Answered at once, in order: every play before it has been taken in while the first resolves.
    client.ws.send(JSON.stringify({ type: 'bogus' }));
    await client.until('the answer to the bogus command', () => client.messages.some((m) => m.type === 'error'));
    hold = undefined;
    release();
    await client.until('the newest play to start', () => app.app.live.activeStreams().some((s) => s.key.startsWith(`${last}@`) && s.viewers === 1));
    expect(resolved).toEqual([cameras[0], last]);
    // Superseded plays are not answered: one view starts, the newest.
    expect(client.messages.filter((m) => m.type === 'status' && m.state === 'starting')).toHaveLength(1);
    expect(client.messages.filter((m) => m.type === 'error')).toHaveLength(1);
    expect(client.closed).toBeUndefined();
    client.ws.close();
  });

  it('a socket that sends faster than the limits allow is told why and closed with 4029', async () => {
    const client = new MediaClient(port, token);
    await client.opened();
    for (let i = 0; i < MEDIA_SOCKET_LIMITS.burst * 3; i++) client.ws.send(JSON.stringify({ type: 'stop' }));
    await client.until('the socket to close', () => client.closed !== undefined);
    expect(client.closed?.code).toBe(CLOSE_TOO_MANY_MESSAGES);
    const refusal = client.messages.find((m) => m.type === 'error');
    expect(refusal?.code).toBe('badRequest');
    expect(refusal?.message).toMatch(/消息过多.*too many messages/);
    expect(logs).toContain('media socket: too many messages');
  });

  it('a grid of 16 cells (16 sockets, one play each) and a page switch of each all start', async () => {
    const clients = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const c = new MediaClient(port, token);
        await c.opened();
        return c;
      }),
    );
    clients.forEach((c, i) => c.ws.send(JSON.stringify({ type: 'play', mode: 'live', cameraId: cameras[i % cameras.length] })));
    await Promise.all(clients.map((c) => c.until('the cell to start', () => c.messages.some((m) => m.state === 'starting'))));
    // The carousel turns the page: every cell asks for another camera.
    clients.forEach((c, i) => c.ws.send(JSON.stringify({ type: 'play', mode: 'live', cameraId: cameras[(i + 1) % cameras.length] })));
    await Promise.all(clients.map((c) => c.until('the next page to start', () => c.messages.filter((m) => m.state === 'starting').length === 2)));
    for (const c of clients) {
      expect(c.closed).toBeUndefined();
      expect(c.messages.filter((m) => m.type === 'error')).toEqual([]);
      c.ws.close();
    }
  });

  it('a control character in an id is a bad request, logged, on the live, ship-end playback and talk paths', async () => {
    const now = Date.now();
    const commands = [
      { type: 'play', mode: 'live', cameraId: `${cameras[0]}\u0000` },
      { type: 'play', mode: 'shipPlayback', cameraId: `\u0000${cameras[0]}`, start: now - 60_000, end: now - 1_000, speed: 1 },
      { type: 'play', mode: 'live', cameraId: `${cameras[0]}\u001b` },
    ];
    for (const command of commands) {
      const client = new MediaClient(port, token);
      await client.opened();
      client.ws.send(JSON.stringify(command));
      await client.until('the refusal', () => client.messages.some((m) => m.type === 'error'));
      expect(client.messages[0]).toMatchObject({ type: 'error', code: 'badRequest' });
      expect(client.messages[0]?.message).toContain('control characters');
      client.ws.close();
    }
    expect(logs.match(/media socket: command refused/g)?.length ?? 0).toBeGreaterThanOrEqual(3);

    const talk = new MediaClient(port, token);
    await talk.opened();
    talk.ws.send(JSON.stringify({ type: 'talk.start', cameraId: `${cameras[0]}\u0000`, format: 'opus' }));
    await talk.until('the refusal', () => talk.messages.some((m) => m.type.includes('error') || m.code !== undefined));
    expect(JSON.stringify(talk.messages)).toContain('badRequest');
    expect(JSON.stringify(talk.messages)).not.toContain('internal');
    expect(logs).toContain('talk: start command refused');
    talk.ws.close();
  });
});
