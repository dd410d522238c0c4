import { randomBytes } from 'node:crypto';
import { type Server, type Socket, createConnection, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fmp4Splitter, type Fmp4Unit } from '@ship-cctv/media';
import type { Database } from '@ship-cctv/server/db';
import { freshDatabase } from '../../../apps/server/test/helpers/database.ts';
import { BINARY_KIND, ENCODES_AV1_CAPABILITY, type LinkReport, type MediaServerMessage, type ShoreMessage } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { type Clip, codecClip } from '../../../apps/server/test/helpers/codec-clips.ts';
import { RawAgent } from '../../../apps/server/test/agent-link/raw-agent.ts';
import { type Shore, signIn, startShore } from './helpers/shore.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };
const LINGER_MS = 1_000;

/** A TCP forwarder whose target can be switched: the load balancer in front of the instances. */
async function balancer(target: number): Promise<{ port: number; target: number; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const lb = { port: 0, target, server: createServer(), sockets };
  lb.server.on('connection', (down) => {
    const up = createConnection(lb.target, '127.0.0.1');
    for (const s of [down, up]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    down.pipe(up).pipe(down);
    down.on('close', () => up.destroy());
    up.on('close', () => down.destroy());
  });
  await new Promise<void>((resolve) => lb.server.listen(0, '127.0.0.1', resolve));
  const address = lb.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  lb.port = address.port;
  return lb;
}

const units = (chunks: readonly Buffer[]): Fmp4Unit[] => {
  const splitter = new Fmp4Splitter();
  return chunks.flatMap((c) => splitter.push(c));
};

/**
 * Two shore instances on one database and the machine's Redis, one real agent on instance A. A
 * viewer on B (which does not own the ship) plays through A; viewers on A and on B share one uplink
 * at the agent; when the last leaves, the uplink stops after the linger.
 */
describe('live video across two shore instances', () => {
  let database: Database;
  let a: Shore;
  let b: Shore;
  let agent: ShipAgent;
  let token: string;
  let lb: Awaited<ReturnType<typeof balancer>>;
  let aClosed = false;
  const clients: MediaClient[] = [];
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  const open = async (shore: Shore) => {
    const c = await MediaClient.open(shore.port, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    database = await freshDatabase('pglite', { seeded: true });
    const opts = { database, redisUrl: REDIS_URL, redisPrefix, live: { lingerMs: LINGER_MS, retryMs: 200 } };
    a = await startShore(opts);
    b = await startShore(opts);
    lb = await balancer(a.port);
    const key = await a.app.agentKeys.issue(SHIP);
    agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${lb.port}`, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
      { current: () => report, onChange: () => () => undefined },
      { cameraKinds: [syntheticCameras()], minBackoffMs: 200, maxBackoffMs: 500 },
    );
    agent.start();
    token = await signIn(b.app);
    await new Promise<void>((resolve) => (agent.connected ? resolve() : agent.once('connected', () => resolve())));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await agent?.stop();
    if (!aClosed) await a?.close();
    await b?.close();
    for (const s of lb?.sockets ?? []) s.destroy();
    await new Promise((resolve) => lb?.server.close(resolve));
    await database?.close();
  });

  it('a viewer on the non-owner plays from a keyframe; viewers on both instances share one uplink; the last leaving stops it after the linger', async () => {
    await expect.poll(() => b.app.ownership.ownerOf(SHIP)).toEqual({ instanceId: a.app.ownership.instanceId, epoch: expect.any(Number) as number });
    expect(b.app.agents.get(SHIP)).toBeUndefined();
    // The owner's taps (its shore recorder) see the stream; the relaying instance's do not, so it is recorded once.
    const tapped = { a: 0, b: 0 };
    const untapA = a.app.live.tapMedia({ init: () => void (tapped.a += 1), fragment: () => undefined, end: () => undefined });
    const untapB = b.app.live.tapMedia({ init: () => void (tapped.b += 1), fragment: () => undefined, end: () => undefined });
    const onB = await open(b);
    onB.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    await onB.until((x) => x.event('status', (e) => e.state === 'playing') !== undefined && x.chunks.length > 10, 20_000, 'playing on B');
    expect(onB.event('codec')).toMatchObject({ width: 640, height: 360 });
    const fromB = units(onB.chunks);
    expect(fromB[0]?.kind).toBe('init');
    const firstFragment = fromB.find((u) => u.kind === 'fragment');
    expect(firstFragment && 'keyframe' in firstFragment && firstFragment.keyframe).toBe(true);
    expect(agent.streams.activeStreamIds).toHaveLength(1);
    expect(b.app.remoteLive?.servedCount).toBe(0);
    expect(a.app.remoteLive?.servedCount).toBe(1);
    expect(tapped.a).toBeGreaterThan(0);
    expect(tapped.b).toBe(0);
    untapA();
    untapB();

    const onA = await open(a);
    onA.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    const bBefore = onB.chunks.length;
    await onA.until((x) => x.chunks.length > 10, 20_000, 'frames on A');
    await onB.until((x) => x.chunks.length > bBefore + 10, 20_000, 'more frames on B');
    // One uplink at the ship for both instances: A's source has its own viewer and B's watch.
    expect(agent.streams.activeStreamIds).toHaveLength(1);
    expect(a.app.live.activeStreams()).toEqual([expect.objectContaining({ viewers: 2, state: 'playing' })]);
    expect(b.app.live.activeStreams()).toEqual([expect.objectContaining({ viewers: 1, state: 'playing' })]);

    await onA.close();
    // B still watches: the uplink stays past A's linger.
    await new Promise((r) => setTimeout(r, LINGER_MS * 2));
    expect(agent.streams.activeStreamIds).toHaveLength(1);
    const bNow = onB.chunks.length;
    await onB.until((x) => x.chunks.length > bNow + 5, 10_000, 'frames on B after A left');

    await onB.close();
    // B lingers, then tells A; A then stops the uplink (B's linger was the linger).
    await expect.poll(() => agent.streams.activeStreamIds.length, { timeout: 10_000 }).toBe(0);
    expect(a.app.remoteLive?.servedCount).toBe(0);
    expect(b.app.live.activeStreams()).toEqual([]);
  });

  it('a viewer on the non-owner gets the codec a viewer on the owner would, and hears what the ship said of it', async () => {
    type Codec = Extract<MediaServerMessage, { type: 'codec' }>;
    const clips = { hevc: await codecClip('hevc'), h264: await codecClip('h264'), av1: await codecClip('av1') } satisfies Record<string, Clip>;
    // S1003 on A: camera C01 sends H.265 (up as it is when asked and it fits), C02 H.264; the agent encodes AV1.
    const [hevcCamera, h264Camera] = ['S1003-C01-1', 'S1003-C02-1'];
    /** S1003's satellite tier: 11 in H.264, 12 in AV1 (seed.ts). */
    const [H264_TIER, AV1_TIER] = [11, 12];
    const ship = await RawAgent.connect(a.port, 'S1003', await a.app.agentKeys.issue('S1003'), {
      hello: {},
      capabilities: ['live', ENCODES_AV1_CAPABILITY],
      onMessage: (msg: ShoreMessage, agent: RawAgent) => {
        if (msg.type !== 'live.start') return;
        const hevc = msg.cameraId === hevcCamera;
        const pass = hevc && msg.encode.passThrough?.includes('h265') === true;
        const c = pass ? clips.hevc : msg.encode.codec === 'av1' ? clips.av1 : clips.h264;
        agent.send({ type: 'live.started', streamId: msg.streamId, cameraCodec: hevc ? 'h265' : 'h264', transcoded: hevc ? !pass : msg.encode.codec !== 'h264' });
        agent.sendFrame(BINARY_KIND.live, msg.streamId, c.init.data);
        for (const f of c.fragments) agent.sendFrame(BINARY_KIND.live, msg.streamId, f.data);
      },
    });
    const lastCodec = (c: MediaClient) => c.events.filter((e): e is Codec => e.type === 'codec').at(-1);
    const asked = (cameraId: string) =>
      ship
        .of('live.start')
        .filter((m) => m.cameraId === cameraId)
        .map((m) => `${m.encode.codec}${m.encode.passThrough?.includes('h265') === true ? '+pass' : ''}`);
    try {
      await expect.poll(() => b.app.ownership.ownerOf('S1003')).toEqual({ instanceId: a.app.ownership.instanceId, epoch: expect.any(Number) as number });
      // H.265 camera, viewers on B only: the one that decodes H.265 gets the camera's own pictures…
      const hevcViewer = await open(b);
      hevcViewer.send({ type: 'play', mode: 'live', cameraId: hevcCamera, templateId: H264_TIER, decoders: ['avc1', 'hvc1'] });
      await hevcViewer.until((c) => lastCodec(c)?.mime.includes('hvc1') === true && c.chunks.length > 2, 20_000, 'hvc1 on B');
      expect(lastCodec(hevcViewer)).toMatchObject({ cameraCodec: 'h265', transcoded: false });
      expect(asked(hevcCamera)).toEqual(['h264+pass']);
      // …one that decodes H.264 only gets the ship's transcode on a stream of its own, and the first keeps its H.265.
      const h264Viewer = await open(b);
      h264Viewer.send({ type: 'play', mode: 'live', cameraId: hevcCamera, templateId: H264_TIER });
      await h264Viewer.until((c) => lastCodec(c)?.mime.includes('avc1') === true && c.chunks.length > 2, 20_000, 'avc1 on B');
      expect(lastCodec(h264Viewer)).toMatchObject({ cameraCodec: 'h265', transcoded: true });
      expect(asked(hevcCamera)).toEqual(['h264+pass', 'h264']);
      expect(hevcViewer.events.filter((e) => e.type === 'codec')).toHaveLength(1);
      // A viewer on A that decodes H.265 shares B's H.265 stream: nothing more is asked of the ship.
      const onOwner = await open(a);
      onOwner.send({ type: 'play', mode: 'live', cameraId: hevcCamera, templateId: H264_TIER, decoders: ['hev1'] });
      await onOwner.until((c) => lastCodec(c)?.mime.includes('hvc1') === true && c.chunks.length > 1, 20_000, 'hvc1 on A');
      expect(asked(hevcCamera)).toEqual(['h264+pass', 'h264']);

      // The AV1 definition: a viewer on B that decodes AV1 gets AV1 (the owner knows the agent encodes it)…
      const av1Viewer = await open(b);
      av1Viewer.send({ type: 'play', mode: 'live', cameraId: h264Camera, templateId: AV1_TIER, decoders: ['avc1', 'av01'] });
      await av1Viewer.until((c) => lastCodec(c)?.mime.includes('av01') === true && c.chunks.length > 2, 20_000, 'av01 on B');
      expect(lastCodec(av1Viewer)).toMatchObject({ cameraCodec: 'h264', transcoded: true });
      expect(asked(h264Camera)).toEqual(['av1']);
      // …and when one that does not joins it on B, the stream goes on in H.264 for both, as on the owner.
      const plainViewer = await open(b);
      plainViewer.send({ type: 'play', mode: 'live', cameraId: h264Camera, templateId: AV1_TIER });
      await plainViewer.until((c) => lastCodec(c)?.mime.includes('avc1') === true && c.chunks.length > 1, 20_000, 'avc1 on B for both');
      await av1Viewer.until((c) => lastCodec(c)?.mime.includes('avc1') === true, 20_000, 'the AV1 viewer moved to avc1');
      expect(asked(h264Camera)).toEqual(['av1', 'h264']);
      for (const c of [hevcViewer, h264Viewer, onOwner, av1Viewer, plainViewer]) await c.close();
      await expect.poll(() => a.app.live.activeStreams().filter((s) => s.shipId === 'S1003').length, { timeout: 10_000 }).toBe(0);
    } finally {
      await ship.close();
    }
  });

  it('the owner dies: the agent reconnects to the other instance, which takes the ship over, and its viewer resumes', async () => {
    const onB = await open(b);
    onB.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    await onB.until((x) => x.chunks.length > 10, 20_000, 'playing on B through A');
    expect(a.app.remoteLive?.servedCount).toBe(1);
    const firstEpoch = (await b.app.ownership.ownerOf(SHIP))?.epoch ?? 0;

    lb.target = b.port;
    aClosed = true;
    await a.close();
    await expect.poll(() => b.app.ownership.ownerOf(SHIP), { timeout: 10_000 }).toEqual({ instanceId: b.app.ownership.instanceId, epoch: firstEpoch + 1 });
    const inits = () => units(onB.chunks).filter((u) => u.kind === 'init').length;
    // The stream restarts on B's own link to the ship: a new init, then frames again.
    await onB.until(() => inits() >= 2, 20_000, 'a new init on B');
    const resumed = onB.chunks.length;
    await onB.until((x) => x.chunks.length > resumed + 10, 20_000, 'frames on B after the take-over');
    expect(b.app.agents.get(SHIP)?.ready).toBe(true);
    expect(agent.streams.activeStreamIds).toHaveLength(1);
    expect(b.app.live.activeStreams()).toEqual([expect.objectContaining({ viewers: 1, state: 'playing' })]);
  });
});
