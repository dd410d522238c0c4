import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_LINK_VERSION,
  BINARY_KIND,
  CLOSE_UNSUPPORTED_VERSION,
  LINK_ACK_INTERVAL_MS,
  type MediaServerMessage,
  type ShoreMessage,
  TOKEN_HEADER,
  type VodQueryResult,
} from '@ship-cctv/protocol';
import { wsFrameOverhead } from '../../src/core/ship-link/connection.ts';
import type { Dropped } from '../../src/core/ship-link/gateway.ts';
import { type TestApp, build, logon, scrapeMetrics } from '../helpers/build.ts';
import { type Clip, MediaClient, ScriptedAgent, linkBytes, loadClip } from '../playback/helpers.ts';
import { RawAgent } from './raw-agent.ts';

const A = 'S1001';
const B = 'S1002';
const CAMERA_A = 'S1001-C01-1';
const HOUR = 3_600_000;

/**
 * The agent link's router on the real server, with agents on real WebSocket links: every message
 * and frame from a ship reaches only the stream that ship owns (by ship, kind and stream id), a
 * hello states versions and capabilities, and shore can send bytes down to a ship.
 */
describe('agent link router', () => {
  let t: TestApp;
  let port: number;
  const keys: Record<string, string> = {};
  let clip: Clip;
  let token: string;
  const dropped: Dropped[] = [];
  const closers: { close(): Promise<void> }[] = [];

  const raw = async (ship: string, opts: Parameters<typeof RawAgent.connect>[3] = {}) => {
    const agent = await RawAgent.connect(port, ship, keys[ship] ?? '', opts);
    closers.push(agent);
    return agent;
  };
  const ready = (ship: string) => expect.poll(() => t.app.agents.get(ship)?.ready ?? false).toBe(true);
  const viewer = async () => {
    const c = await MediaClient.open(port, token);
    closers.push(c);
    return c;
  };
  const statuses = (c: MediaClient) => c.events.filter((e): e is Extract<MediaServerMessage, { type: 'status' }> => e.type === 'status').map((e) => e.state);
  const droppedFrom = (ship: string) => dropped.filter((d) => d.shipId === ship);

  beforeAll(async () => {
    clip = await loadClip(2);
    // A forged end of stream, were it taken, would restart the stream within 50 ms.
    t = await build({ live: { retryMs: 50, lingerMs: 200 }, playback: { vod: { timeoutMs: 5_000 } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    for (const ship of [A, B]) keys[ship] = await t.app.agentKeys.issue(ship);
    token = (await logon(t.app, 'demo')).token;
    t.app.agents.events.on('dropped', (d) => dropped.push(d));
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c.close()));
    await expect.poll(() => t.app.agents.connectedShips()).toEqual([]);
    dropped.length = 0;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("one ship cannot reach another ship's streams", () => {
    it("a forged live stream id from ship B leaves ship A's viewers untouched", async () => {
      // Ship A streams the clip: started, the init segment, then a fragment whenever the test says.
      let next = 0;
      const agentA = await raw(A, {
        hello: {},
        capabilities: ['live'],
        onMessage: (msg, agent) => {
          if (msg.type !== 'live.start') return;
          agent.send({ type: 'live.started', streamId: msg.streamId });
          agent.sendFrame(BINARY_KIND.live, msg.streamId, clip.init);
          agent.sendFrame(BINARY_KIND.live, msg.streamId, clip.fragments[next++] ?? new Uint8Array(0));
        },
      });
      const agentB = await raw(B, { hello: {}, capabilities: ['live'] });
      await ready(A);
      await ready(B);

      const c = await viewer();
      c.send({ type: 'play', mode: 'live', cameraId: CAMERA_A });
      await c.until((x) => x.chunks.length >= 2 && statuses(x).includes('playing'), 10_000, 'init and a fragment');
      const [start] = agentA.of('live.start');
      if (!start) throw new Error('no live.start');
      const id = start.streamId;
      const before = statuses(c);
      expect(before.at(-1)).toBe('playing');

      // Ship B names ship A's stream: ends it, fails it, and feeds it bytes (garbage and a real fragment).
      agentB.send({ type: 'live.ended', streamId: id, reason: 'forged' });
      agentB.send({ type: 'live.failed', streamId: id, message: 'forged' });
      agentB.sendFrame(BINARY_KIND.live, id, new Uint8Array([0, 0, 0, 8, 0x6d, 0x6f, 0x6f, 0x66, 1, 2, 3]));
      agentB.sendFrame(BINARY_KIND.live, id, clip.fragments[5] ?? new Uint8Array(0));
      await expect.poll(() => droppedFrom(B).length).toBe(4);
      expect(droppedFrom(B).every((d) => d.reason === 'notOwned' && d.kind === 'live' && d.id === id)).toBe(true);

      // Ship A's next fragment still reaches the viewer on the same stream: nothing was ended or restarted.
      agentA.sendFrame(BINARY_KIND.live, id, clip.fragments[next++] ?? new Uint8Array(0));
      await c.until((x) => x.chunks.length >= 3, 10_000, "ship A's next fragment");
      expect(c.chunks).toHaveLength(3);
      expect(c.bytes).toBe(clip.init.length + (clip.fragments[0]?.length ?? 0) + (clip.fragments[1]?.length ?? 0));
      expect(statuses(c)).toEqual(before);
      expect(c.events.some((e) => e.type === 'error')).toBe(false);
      expect(agentA.of('live.start')).toHaveLength(1);
      expect(agentA.of('live.stop')).toHaveLength(0);
      expect(t.app.live.activeStreams()).toMatchObject([{ shipId: A, viewers: 1, state: 'playing' }]);
      // Nothing was dropped on ship A's link.
      expect(droppedFrom(A)).toEqual([]);
    });

    it("a forged playback stream id from ship B leaves ship A's playback untouched", async () => {
      const agentA = await ScriptedAgent.connect(port, A, keys[A] ?? '', clip, { fragmentEveryMs: 150 });
      closers.push(agentA);
      const agentB = await raw(B, { hello: {}, capabilities: ['playback'] });
      await ready(A);
      await ready(B);

      const c = await viewer();
      const start = Date.now() - 3 * HOUR;
      c.send({ type: 'play', mode: 'shipPlayback', cameraId: CAMERA_A, start, end: start + HOUR, speed: 1 });
      await c.until((x) => x.chunks.length >= 2, 10_000, 'init and a fragment');
      const [play] = agentA.of('playback.start');
      if (!play) throw new Error('no playback.start');
      const id = play.streamId;

      agentB.send({ type: 'playback.position', streamId: id, time: start + 59 * 60_000 });
      agentB.send({ type: 'playback.failed', streamId: id, code: 'noRecording', message: 'forged' });
      agentB.send({ type: 'playback.ended', streamId: id });
      agentB.sendFrame(BINARY_KIND.playback, id, new Uint8Array(64));
      await expect.poll(() => droppedFrom(B).length).toBe(4);
      expect(droppedFrom(B).every((d) => d.reason === 'notOwned' && d.kind === 'playback' && d.id === id)).toBe(true);

      // Ship A's fragments keep coming on the same stream.
      const seen = c.chunks.length;
      await c.until((x) => x.chunks.length >= seen + 2, 10_000, "ship A's next fragments");
      expect(statuses(c)).not.toContain('ended');
      expect(c.events.some((e) => e.type === 'error')).toBe(false);
      expect(c.events.some((e) => e.type === 'position' && e.time === start + 59 * 60_000)).toBe(false);
      expect(t.app.playback.active()).toMatchObject([{ shipId: A, streamId: id, state: 'playing' }]);
      expect(agentA.of('playback.stop')).toEqual([]);
    });

    it("a forged answer from ship B to ship A's span query is dropped; ship A's answer is the one taken", async () => {
      const agentA = await ScriptedAgent.connect(port, A, keys[A] ?? '', clip, { silentQueries: true });
      closers.push(agentA);
      const agentB = await raw(B, { hello: {}, capabilities: ['playback'] });
      await ready(A);
      await ready(B);

      const end = Date.now() - 10 * HOUR;
      const answer = t.app.inject({ method: 'GET', url: `/cctvv3-server/v3/vod/query/${A}/${CAMERA_A}/${end - HOUR}/${end}`, headers: { [TOKEN_HEADER]: token } });
      await agentA.until(() => agentA.of('vod.query').length === 1, 10_000, 'vod.query');
      const [query] = agentA.of('vod.query');
      if (!query) throw new Error('no vod.query');
      agentB.send({ type: 'vod.result', requestId: query.requestId, cameraId: CAMERA_A, spans: [{ start: end - HOUR, end }] });
      agentB.send({ type: 'vod.failed', requestId: query.requestId, message: 'forged' });
      await expect.poll(() => droppedFrom(B).length).toBe(2);

      const spans = [{ start: end - 40 * 60_000, end: end - 30 * 60_000 }];
      agentA.send({ type: 'vod.result', requestId: query.requestId, cameraId: CAMERA_A, spans });
      const res = await answer;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ data: VodQueryResult }>().data).toMatchObject({ spans, cached: false });
    });
  });

  it('asks the new link for the live stream when a ship reconnects before shore noticed its old link had gone', async () => {
    const streaming = (msg: ShoreMessage, agent: RawAgent) => {
      if (msg.type !== 'live.start') return;
      agent.send({ type: 'live.started', streamId: msg.streamId });
      agent.sendFrame(BINARY_KIND.live, msg.streamId, clip.init);
      agent.sendFrame(BINARY_KIND.live, msg.streamId, clip.fragments[0] ?? new Uint8Array(0));
    };
    const first = await raw(A, { hello: {}, capabilities: ['live'], onMessage: streaming });
    await ready(A);
    const c = await viewer();
    c.send({ type: 'play', mode: 'live', cameraId: CAMERA_A });
    await c.until((x) => x.chunks.length >= 2, 10_000, 'init and a fragment');
    const oldId = first.of('live.start')[0]?.streamId;

    const second = await raw(A, { hello: {}, capabilities: ['live'], onMessage: streaming });
    await first.until(() => first.closed !== undefined, 'the old link closed');
    await second.until(() => second.of('live.start').length === 1, 'live.start on the new link');
    expect(second.of('live.start')[0]?.streamId).not.toBe(oldId);
    // The viewer gets the new stream's init and fragment.
    await c.until((x) => x.chunks.length >= 4, 10_000, 'the new stream');
    expect(c.events.some((e) => e.type === 'error')).toBe(false);
    // What the old link's stream id names is nothing on the new link.
    if (oldId !== undefined) second.sendFrame(BINARY_KIND.live, oldId, new Uint8Array(8));
    await expect.poll(() => droppedFrom(A).map((d) => d.reason)).toEqual(['notOwned']);
  });

  describe('routing', () => {
    it('drops a frame of a kind no group has, and a message or frame for a stream nobody opened', async () => {
      const agent = await raw(A, { hello: {} });
      await ready(A);
      const before = linkBytes(await scrapeMetrics(t.app), A, 'up', 'control');
      agent.sendFrame(9, 1, new Uint8Array(10));
      agent.sendFrame(BINARY_KIND.live, 123_456, new Uint8Array(10));
      agent.send({ type: 'live.ended', streamId: 123_456, reason: 'never started' });
      await expect.poll(() => droppedFrom(A).map((d) => d.reason)).toEqual(['unknownKind', 'notOwned', 'notOwned']);
      expect(droppedFrom(A)[0]).toMatchObject({ kind: undefined, detail: expect.stringMatching(/binary kind 9/) });
      // The frame of no kind still crossed the link: it is counted, under control.
      await expect
        .poll(async () => linkBytes(await scrapeMetrics(t.app), A, 'up', 'control') - before)
        .toBeGreaterThanOrEqual(15 + wsFrameOverhead(15, true));
    });

    it('drops, quietly, what was still on its way for a stream shore has closed', async () => {
      const agent = await raw(A, { hello: {} });
      await ready(A);
      const heard: string[] = [];
      const opened = t.app.agents.openStream(A, 'live', { message: (m) => heard.push(m.type), data: () => heard.push('bytes') });
      if (!opened.ok) throw new Error(opened.message);
      const { stream } = opened;
      agent.send({ type: 'live.started', streamId: stream.id });
      await expect.poll(() => heard).toEqual(['live.started']);
      stream.close();
      expect(stream.open).toBe(false);
      agent.send({ type: 'live.ended', streamId: stream.id, reason: 'stopped' });
      agent.sendFrame(BINARY_KIND.live, stream.id, new Uint8Array(4));
      await expect.poll(() => droppedFrom(A).map((d) => d.reason)).toEqual(['closed', 'closed']);
      expect(heard).toEqual(['live.started']);
    });

    it('answers a malformed message with an error naming the field, and keeps the link', async () => {
      const agent = await raw(A, { hello: {} });
      await ready(A);
      agent.sendRaw({ type: 'teleport' });
      agent.sendRaw({ type: 'live.started', streamId: -4 });
      agent.sendRaw('not json');
      await agent.until(() => agent.of('error').length === 3, 'three errors');
      expect(agent.of('error').map((e) => [e.code, e.message])).toEqual([
        ['badMessage', 'unknown message type "teleport"'],
        ['badMessage', expect.stringMatching(/^live\.started: \/streamId /)],
        ['badMessage', 'a message is a JSON object with a string "type"'],
      ]);
      expect(agent.closed).toBeUndefined();
      expect(t.app.agents.get(A)?.ready).toBe(true);
    });

    it('refuses to send a message naming another stream, or bytes on a kind that carries none', async () => {
      await raw(A, { hello: {}, capabilities: ['live', 'ptz'] });
      await ready(A);
      const live = t.app.agents.openStream(A, 'live', { message: () => undefined });
      const ptz = t.app.agents.openStream(A, 'ptz', { message: () => undefined });
      if (!live.ok || !ptz.ok) throw new Error('not opened');
      expect(live.stream.id).not.toBe(ptz.stream.id);
      expect(() => live.stream.send({ type: 'live.stop', streamId: live.stream.id + 1 })).toThrow(/not live stream/);
      expect(() => ptz.stream.sendBinary(new Uint8Array(1))).toThrow(/a ptz stream carries no bytes/);
      live.stream.close();
      ptz.stream.close();
    });
  });

  describe('hello: versions and capabilities', () => {
    it('tells an agent of an older link version why it is refused, and closes its link', async () => {
      // What a version-1 agent said.
      const old = await raw(A, { hello: { protocol: 1, agentVersion: '0.1.0', capabilities: undefined } });
      await old.until(() => old.closed !== undefined, 'close');
      expect(old.of('error')).toEqual([
        {
          type: 'error',
          code: 'unsupportedVersion',
          message: `agent link protocol 1–1 is not supported: this shore speaks 2–${AGENT_LINK_VERSION}; update the ship agent`,
        },
      ]);
      expect(old.closed?.code).toBe(CLOSE_UNSUPPORTED_VERSION);
      expect(old.of('welcome')).toEqual([]);

      const newer = await raw(A, { hello: { protocol: { min: AGENT_LINK_VERSION + 1, max: AGENT_LINK_VERSION + 3 } } });
      await newer.until(() => newer.closed !== undefined, 'close');
      expect(newer.of('error')[0]?.message).toContain(`protocol ${AGENT_LINK_VERSION + 1}–${AGENT_LINK_VERSION + 3} is not supported`);
      expect(t.app.agents.get(A)?.ready ?? false).toBe(false);
    });

    it('agrees on the highest version both ends speak', async () => {
      const agent = await raw(A, { hello: { protocol: { min: 1, max: AGENT_LINK_VERSION + 5 } } });
      await ready(A);
      await agent.until(() => agent.of('welcome').length === 1, 'welcome');
      expect(agent.of('welcome')[0]).toMatchObject({ shipId: A, protocol: AGENT_LINK_VERSION });
      expect(t.app.agents.get(A)?.protocol).toBe(AGENT_LINK_VERSION);
    });

    it('acknowledges what an agent of version 3 or later sends (link.ack), and sends a version 2 agent none', async () => {
      const agent = await raw(A, { hello: {} });
      await ready(A);
      agent.sendFrame(BINARY_KIND.live, 77, new Uint8Array(5_000));
      agent.sendRaw({ type: 'link', linkType: 'FBB', quality: 50, duplex: 'BOTH' });
      await agent.until(() => agent.of('link.ack').at(-1)?.bytes === agent.sentBytes, 'an acknowledgement of everything sent');
      expect(agent.sentBytes).toBeGreaterThan(5_000);
      // Acknowledgements are totals, only ever growing, and few: one per interval with something new.
      const acks = agent.of('link.ack').map((a) => a.bytes);
      expect(acks).toEqual([...acks].sort((a, b) => a - b));
      expect(acks.length).toBeLessThanOrEqual(3);
      await new Promise((r) => setTimeout(r, LINK_ACK_INTERVAL_MS * 3));
      expect(agent.of('link.ack').length).toBe(acks.length); // nothing new, nothing said
      await agent.close();
      await expect.poll(() => t.app.agents.connectedShips()).toEqual([]);

      const v2 = await raw(A, { hello: { protocol: { min: 2, max: 2 } } });
      await ready(A);
      v2.sendFrame(BINARY_KIND.live, 78, new Uint8Array(5_000));
      await new Promise((r) => setTimeout(r, LINK_ACK_INTERVAL_MS * 3));
      expect(v2.of('welcome')[0]?.protocol).toBe(2);
      expect(v2.of('link.ack')).toEqual([]);
    });

    it('knows what a ship can do, and opens no stream of a kind its agent did not list', async () => {
      await raw(A, { hello: {}, capabilities: ['playback', 'hologram'] });
      await ready(A);
      const conn = t.app.agents.get(A);
      expect([...(conn?.capabilities ?? [])]).toEqual(['playback']);
      // What is not a link kind is kept as a feature the agent offers.
      expect(conn?.offers('hologram')).toBe(true);
      expect(conn?.offers('live')).toBe(false);
      expect(t.app.agents.openStream(A, 'live', { message: () => undefined })).toEqual({
        ok: false,
        reason: 'unsupported',
        message: `the agent of ship ${A} does not handle live (it handles: playback)`,
      });
      expect(t.app.agents.openStream(B, 'live', { message: () => undefined })).toMatchObject({ ok: false, reason: 'offline' });

      // A viewer of such a ship is told why nothing comes, and the ship is asked for nothing.
      const c = await viewer();
      c.send({ type: 'play', mode: 'live', cameraId: CAMERA_A });
      await c.until((x) => x.event('status', (e) => e.state === 'offline') !== undefined, 10_000, 'offline');
      expect(c.event('status', (e) => e.state === 'offline')?.reason).toMatch(/does not handle live/);
      expect(t.app.agents.openStreamCount).toBe(0);
    });

    it('sends bytes down to a ship (talkback) as frames of the stream, counted as talk', async () => {
      const agent = await raw(A, { hello: {}, capabilities: ['talk'] });
      await ready(A);
      const heard: string[] = [];
      const opened = t.app.agents.openStream(A, 'talk', { message: (m) => heard.push(m.type) });
      if (!opened.ok) throw new Error(opened.message);
      const { stream } = opened;
      stream.send({ type: 'talk.open', streamId: stream.id, cameraId: CAMERA_A, codec: 'opus' });
      const voice = new Uint8Array(300).map((_, i) => i % 251);
      stream.sendBinary(voice);
      await agent.until(() => agent.frames.length === 1, 'a talk frame');
      expect(agent.of('talk.open')).toEqual([{ type: 'talk.open', streamId: stream.id, cameraId: CAMERA_A, codec: 'opus' }]);
      expect(agent.frames[0]?.kind).toBe('talk');
      expect(agent.frames[0]?.streamId).toBe(stream.id);
      expect([...(agent.frames[0]?.payload ?? [])]).toEqual([...voice]);
      agent.send({ type: 'talk.opened', streamId: stream.id });
      await expect.poll(() => heard).toEqual(['talk.opened']);
      const frameBytes = 5 + voice.length;
      expect(linkBytes(await scrapeMetrics(t.app), A, 'down', 'talk')).toBe(frameBytes + wsFrameOverhead(frameBytes, false));
      stream.close();
    });
  });
});
