import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentMessage, LinkKind, ShoreMessage } from '@ship-cctv/protocol';
import type { StreamHandler } from '../../src/core/ship-link/gateway.ts';
import { LinkRelay, type RelayGateway } from '../../src/core/ship-link/link-relay.ts';
import { type RelayHeader, decodeRelay, encodeRelay } from '../../src/core/ship-link/link-relay-codec.ts';
import { OwnerLink, listener, opened, ownership } from './relay-doubles.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = 'S1001';
const HEARTBEAT_MS = 100;
const log = pino({ level: 'silent' });

const routeId = (msg: ShoreMessage): number => ('requestId' in msg ? msg.requestId : 'streamId' in msg ? msg.streamId : -1);

describe('the link relay between instances', () => {
  const prefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  const owners = new Map<string, string>();
  const closers: (() => Promise<unknown> | void)[] = [];
  const start = async (instanceId: string, gateway: RelayGateway, opts = {}) => {
    const relay = await LinkRelay.connect(REDIS_URL, prefix, gateway, ownership(instanceId, owners), log, { heartbeatMs: HEARTBEAT_MS, ...opts });
    closers.push(() => relay.close());
    return relay;
  };
  /** Another instance, played by hand: it publishes what it likes and records what it is sent. */
  const ghost = async (instanceId: string) => {
    const pub = new Redis(REDIS_URL);
    const sub = new Redis(REDIS_URL);
    const got: RelayHeader[] = [];
    sub.on('messageBuffer', (_c: Buffer, m: Buffer) => {
      const d = decodeRelay(m);
      if (d) got.push(d.header);
    });
    await sub.subscribe(`${prefix}link-relay:${instanceId}`);
    closers.push(() => {
      pub.disconnect();
      sub.disconnect();
    });
    return { got, send: (to: string, h: RelayHeader) => pub.publish(`${prefix}link-relay:${to}`, encodeRelay(h)) };
  };
  afterEach(async () => {
    owners.clear();
    for (const close of closers.splice(0)) await close();
  });

  it('renames stream ids both ways, and carries messages and bytes (a newline among them) in order', async () => {
    const link = new OwnerLink();
    const owner = await start('owner', link);
    const requester = await start('requester', new OwnerLink());
    owners.set(SHIP, 'owner');

    const { heard, handler } = listener();
    const talk = await opened(requester.openStream(SHIP, 'talk', handler));
    const side = link.streams[0];
    if (!side) throw new Error('the owner opened nothing');
    // The caller's id is its own; the link's is the owner's.
    expect(side.stream.id).toBe(900);
    expect(talk.id).not.toBe(900);
    talk.send({ type: 'talk.open', streamId: talk.id, cameraId: 'S1001-C01-1', codec: 'opus', format: 'opus', talker: 'Op' });
    const frames = Array.from({ length: 50 }, (_, i) => Buffer.from([i, 0x0a, 0x7b, 0x0a, i]));
    for (const f of frames) talk.sendBinary(f);
    await expect.poll(() => side.bytes.length).toBe(50);
    expect(side.bytes).toEqual(frames);
    expect(side.sent).toEqual([{ type: 'talk.open', streamId: 900, cameraId: 'S1001-C01-1', codec: 'opus', format: 'opus', talker: 'Op' }]);
    // A message naming another stream is the caller's mistake, as on the gateway.
    expect(() => talk.send({ type: 'talk.close', streamId: talk.id + 1 })).toThrow(/not talk stream/);

    side.handler.message({ type: 'talk.failed', streamId: 900, code: 'occupied', message: 'busy' });
    await expect.poll(() => heard.messages).toEqual([{ type: 'talk.failed', streamId: talk.id, code: 'occupied', message: 'busy' }]);

    // Bytes up (playback) arrive whole and in order too.
    const { heard: pb, handler: pbHandler } = listener();
    const playback = await opened(requester.openStream(SHIP, 'playback', pbHandler));
    const pbSide = link.streams[1];
    if (!pbSide) throw new Error('no playback stream at the owner');
    const up = Array.from({ length: 50 }, (_, i) => randomBytes(1_000 + i));
    for (const p of up) pbSide.handler.data?.(p);
    pbSide.handler.message({ type: 'playback.ended', streamId: pbSide.stream.id });
    await expect.poll(() => pb.messages).toEqual([{ type: 'playback.ended', streamId: playback.id }]);
    expect(pb.bytes).toEqual(up);

    expect(owner.counts).toEqual({ requested: 0, served: 2 });
    talk.close();
    playback.close();
    await expect.poll(() => owner.counts.served).toBe(0);
    expect(side.open).toBe(false);
    expect(requester.counts).toEqual({ requested: 0, served: 0 });
  });

  it('a command through the owner: the added time of open, question, answer and close (median of 50, loopback)', async () => {
    // The owner's link answers every ptz question at once, so what is timed is the relay alone.
    const link = new OwnerLink();
    const answer = link.openStream.bind(link);
    link.openStream = ((shipId: string, kind: LinkKind, handler: StreamHandler<LinkKind>) => {
      const r = answer(shipId, kind, handler);
      const side = link.streams.at(-1);
      if (r.ok && side) side.stream.send = (msg) => queueMicrotask(() => handler.message({ type: 'ptz.done', requestId: routeId(msg) }));
      return r;
    }) as OwnerLink['openStream'];
    await start('owner', link);
    const requester = await start('requester', new OwnerLink());
    owners.set(SHIP, 'owner');
    const command = async (opener: RelayGateway | LinkRelay) => {
      const t0 = performance.now();
      let done: (m: AgentMessage) => void = () => undefined;
      const answered = new Promise<AgentMessage>((resolve) => (done = resolve));
      const stream = await opened(opener.openStream(SHIP, 'ptz', { message: (m) => done(m) }));
      stream.send({ type: 'ptz.stop', requestId: stream.id, cameraId: 'S1001-C01-1' });
      expect(await answered).toEqual({ type: 'ptz.done', requestId: stream.id });
      stream.close();
      return performance.now() - t0;
    };
    const direct: number[] = [];
    const relayed: number[] = [];
    for (let i = 0; i < 50; i++) {
      direct.push(await command(link));
      relayed.push(await command(requester));
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? NaN;
    // A figure, not a bound: under a loaded machine's scheduling a median of 20 ms once read 20.1.
    // What is asserted is that each of the 100 commands got its own answer (in `command`).
    console.log(`[link relay] a ptz command: median ${median(direct).toFixed(3)} ms on the owner's link, ${median(relayed).toFixed(3)} ms through the relay`);
  });

  it("tells the caller when the ship's link goes at the owner, and passes on the owner's refusal", async () => {
    const link = new OwnerLink();
    await start('owner', link);
    const requester = await start('requester', new OwnerLink());
    owners.set(SHIP, 'owner');
    const { heard, handler } = listener();
    await opened(requester.openStream(SHIP, 'ptz', handler));
    link.streams[0]?.handler.closed?.('ship link closed: gone');
    await expect.poll(() => heard.closed).toEqual(['ship link closed: gone']);
    expect(requester.counts.requested).toBe(0);

    link.refuse = { ok: false, reason: 'unsupported', message: 'the agent of ship S1001 does not handle ptz' };
    expect(await requester.openStream(SHIP, 'ptz', handler)).toEqual(link.refuse);
    // No owner at all: offline without asking anyone.
    owners.clear();
    expect(await requester.openStream(SHIP, 'ptz', handler)).toMatchObject({ ok: false, reason: 'offline' });
  });

  it('the owner closes a stream whose requester died (no more heartbeats)', async () => {
    const link = new OwnerLink();
    const owner = await start('owner', link);
    const dead = await ghost('dead');
    const rid = randomUUID();
    await dead.send('owner', { op: 'open', rid, from: 'dead', shipId: SHIP, kind: 'playback' });
    await expect.poll(() => dead.got).toEqual([{ op: 'opened', rid }]);
    expect(link.streams[0]?.open).toBe(true);
    // Beats keep it; then the requester falls silent.
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) {
      await dead.send('owner', { op: 'beat', from: 'dead', rids: [rid] });
      await new Promise((r) => setTimeout(r, HEARTBEAT_MS));
    }
    expect(link.streams[0]?.open).toBe(true);
    expect(dead.got.filter((h) => h.op === 'ack').length).toBeGreaterThanOrEqual(4);
    await expect.poll(() => link.streams[0]?.open, { timeout: 2_000, interval: 20 }).toBe(false);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(5 * HEARTBEAT_MS);
    expect(owner.counts.served).toBe(0);
  });

  it('the requester gives up on an owner that stops answering, and on one that never answers the open', async () => {
    const requester = await start('requester', new OwnerLink(), { openTimeoutMs: 300 });
    const silent = await ghost('silent');
    owners.set(SHIP, 'silent');
    const t0 = performance.now();
    expect(await requester.openStream(SHIP, 'ptz', listener().handler)).toMatchObject({ ok: false, reason: 'offline', message: expect.stringMatching(/did not answer/) as string });
    // Node's timers start from the event loop's clock floored to the millisecond, so a 300 ms
    // timer fires after 299 ms or more as a finer clock measures it (Date.now() read 299 once).
    expect(performance.now() - t0).toBeGreaterThanOrEqual(300 - 1);

    const { heard, handler } = listener();
    const asked = requester.openStream(SHIP, 'playback', handler);
    await expect.poll(() => silent.got.filter((h) => h.op === 'open').length).toBe(2);
    const open = silent.got.at(-1);
    if (open?.op !== 'open') throw new Error('no open');
    await silent.send('requester', { op: 'opened', rid: open.rid });
    const stream = await opened(asked);
    expect(stream.open).toBe(true);
    // It heard beats but acknowledges none: after three heartbeats the caller hears the stream is gone.
    await expect.poll(() => heard.closed, { timeout: 2_000, interval: 20 }).toEqual(['the instance holding the ship link stopped answering']);
    expect(silent.got.some((h) => h.op === 'beat')).toBe(true);
    expect(stream.open).toBe(false);
  });
});
