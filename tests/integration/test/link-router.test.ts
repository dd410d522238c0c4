import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocketServer } from 'ws';
import {
  AGENT_LINK_VERSION,
  BINARY_KIND,
  CLOSE_UNSUPPORTED_VERSION,
  type LinkReport,
  PATHS,
  type ShoreMessageOf,
  encodeStreamFrame,
  helloProtocol,
} from '@ship-cctv/protocol';
import { AgentLinkRouter } from '../../../apps/agent/src/agent-link/router.ts';
import { ShipAgent } from '@ship-cctv/agent';
import { type Shore, startShore } from './helpers/shore.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const report: LinkReport = { linkType: 'VSAT', quality: 80, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };
const text = (value: unknown) => Buffer.from(JSON.stringify(value));

describe("the agent's link router", () => {
  it('hands each message to the handler of its kind, and drops what no handler takes, with the reason', () => {
    const router = new AgentLinkRouter();
    const live: ShoreMessageOf<'live'>[] = [];
    const bytes: [number, number[]][] = [];
    const dropped: string[] = [];
    router.on('dropped', (r) => dropped.push(r));
    router.handle('live', { message: (m) => live.push(m) });
    router.handle('talk', { message: () => undefined, data: (id, payload) => bytes.push([id, [...payload]]) });
    expect(router.capabilities).toEqual(['live', 'talk']);
    expect(() => router.handle('live', { message: () => undefined })).toThrow(/registered already/);

    router.receive(text({ type: 'live.stop', streamId: 3 }), false);
    router.receive(encodeStreamFrame(BINARY_KIND.talk, 4, new Uint8Array([1, 2])), true);
    expect(live).toEqual([{ type: 'live.stop', streamId: 3 }]);
    expect(bytes).toEqual([[4, [1, 2]]]);

    router.receive(text({ type: 'playback.stop', streamId: 5 }), false);
    router.receive(text({ type: 'live.stop', streamId: 'x' }), false);
    router.receive(text({ type: 'live.started', streamId: 1 }), false);
    router.receive(Buffer.from('{'), false);
    router.receive(encodeStreamFrame(BINARY_KIND.live, 6, new Uint8Array(3)), true);
    router.receive(encodeStreamFrame(7, 6, new Uint8Array(3)), true);
    router.receive(new Uint8Array(2), true);
    expect(dropped).toEqual([
      'playback.stop: this agent does not handle playback',
      expect.stringMatching(/^live\.stop: \/streamId /),
      'unknown message type "live.started"',
      expect.stringMatching(/^malformed JSON/),
      'binary frame for live stream 6: this agent takes no live bytes',
      expect.stringMatching(/binary kind 7 is not one of/),
      expect.stringMatching(/shorter than its 5-byte header/),
    ]);
    expect(live).toHaveLength(1);
  });
});

describe('a ship agent on the real shore link', () => {
  let shore: Shore;
  let key: string;
  const agents: ShipAgent[] = [];

  beforeAll(async () => {
    shore = await startShore();
    key = await shore.app.agentKeys.issue(SHIP);
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.stop()));
    await expect.poll(() => shore.app.agents.get(SHIP)).toBeUndefined();
  });
  afterAll(async () => {
    await shore?.close();
  });

  it('says what it can do in its hello, and learns the version shore chose', async () => {
    const agent = new ShipAgent({ shoreUrl: shore.url, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic' }] }, link, { cameraKinds: [syntheticCameras()] });
    agents.push(agent);
    agent.start();
    await expect.poll(() => shore.app.agents.get(SHIP)?.ready ?? false).toBe(true);
    expect([...(shore.app.agents.get(SHIP)?.capabilities ?? [])]).toEqual(['live', 'playback', 'pictures', 'talk', 'backfill', 'events']);
    await expect.poll(() => agent.protocol).toBe(AGENT_LINK_VERSION);
    // Shore opens nothing the agent did not list.
    expect(shore.app.agents.openStream(SHIP, 'ptz', { message: () => undefined })).toMatchObject({ ok: false, reason: 'unsupported' });
  });

  it('receives bytes shore sends down on a stream of a kind it handles (talkback)', async () => {
    const agent = new ShipAgent({ shoreUrl: shore.url, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic' }] }, link, { cameraKinds: [syntheticCameras()] });
    agents.push(agent);
    const messages: ShoreMessageOf<'talk'>[] = [];
    const audio: { streamId: number; payload: number[] }[] = [];
    // The agent's own talk handler (ShipTalk) gets them: watched on their way in.
    vi.spyOn(agent.talk, 'message').mockImplementation((m) => messages.push(m));
    vi.spyOn(agent.talk, 'data').mockImplementation((streamId, payload) => audio.push({ streamId, payload: [...payload] }));
    agent.start();
    await expect.poll(() => shore.app.agents.get(SHIP)?.capabilities.has('talk') ?? false).toBe(true);

    const opened = shore.app.agents.openStream(SHIP, 'talk', { message: () => undefined });
    if (!opened.ok) throw new Error(opened.message);
    const { stream } = opened;
    stream.send({ type: 'talk.open', streamId: stream.id, cameraId: CAMERA, codec: 'opus' });
    stream.sendBinary(new Uint8Array([9, 8, 7]));
    stream.sendBinary(new Uint8Array([6]));
    await expect.poll(() => audio.length).toBe(2);
    expect(messages).toEqual([{ type: 'talk.open', streamId: stream.id, cameraId: CAMERA, codec: 'opus' }]);
    expect(audio).toEqual([
      { streamId: stream.id, payload: [9, 8, 7] },
      { streamId: stream.id, payload: [6] },
    ]);
    stream.close();
  });
});

describe('an agent a shore will not speak with', () => {
  let server: WebSocketServer;
  beforeAll(async () => {
    // A shore that speaks only a future version answers every hello as the real one does.
    server = new WebSocketServer({ port: 0, host: '127.0.0.1', path: PATHS.agentLink });
    await new Promise((resolve) => server.once('listening', resolve));
    server.on('connection', (ws) => {
      ws.on('message', (data) => {
        const range = helloProtocol(JSON.parse(String(data)));
        if (!range) return;
        ws.send(JSON.stringify({ type: 'error', code: 'unsupportedVersion', message: `agent link protocol ${range.min}–${range.max} is not supported: this shore speaks 9–9; update the ship agent` }));
        ws.close(CLOSE_UNSUPPORTED_VERSION, 'unsupported agent link version');
      });
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('is told why it is refused', async () => {
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const agent = new ShipAgent({ shoreUrl: `ws://127.0.0.1:${address.port}`, shipId: SHIP, key: 'k', cameras: [] }, link, { cameraKinds: [syntheticCameras()], minBackoffMs: 60_000 });
    const refused = new Promise<[string, string]>((resolve) => agent.once('refused', (code, message) => resolve([code, message])));
    const disconnected = new Promise<string>((resolve) => agent.once('disconnected', resolve));
    agent.start();
    try {
      const [code, message] = await refused;
      expect(code).toBe('unsupportedVersion');
      expect(message).toBe(`agent link protocol 2–${AGENT_LINK_VERSION} is not supported: this shore speaks 9–9; update the ship agent`);
      expect(await disconnected).toBe(`${CLOSE_UNSUPPORTED_VERSION} unsupported agent link version`);
    } finally {
      await agent.stop();
    }
  });
});
