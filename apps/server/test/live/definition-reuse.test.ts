import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND, type MediaServerMessage, type ShoreMessage } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { type Clip, MediaClient, loadClip } from '../playback/helpers.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';

const SHIP = 'S1001';
/** S1001's templates: 5 is 320×180 (the lowest), 6 640×360 (the default), 7 1280×720. */
const LOWEST = 5;
const STANDARD = 6;

type LiveStart = Extract<ShoreMessage, { type: 'live.start' }>;

/**
 * A definition switch and the ship's uplink (issue 19 item 2): a viewer who switches to a
 * definition another viewer already watches joins that uplink — one ship-side stream per camera and
 * definition — including when the stream carrying it is one asked at a higher definition that the
 * degraded link dropped to the lowest. Counted as the ship sees it: live.start and live.stop.
 */
describe('definition switch reuses a running uplink', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  let clip: Clip;
  let agent: RawAgent;
  /** Streams started and not stopped, by id (what the ship is sending). */
  const running = new Map<number, LiveStart>();
  /** Every (camera, width) pair that ran twice at once. */
  const doubles: string[] = [];
  const paced = new Set<NodeJS.Timeout>();
  const viewers: MediaClient[] = [];

  const starts = () => agent.received.filter((m): m is LiveStart => m.type === 'live.start');
  const viewer = async () => {
    const c = await MediaClient.open(port, token);
    viewers.push(c);
    return c;
  };
  const notices = (c: MediaClient) => c.events.filter((e): e is Extract<MediaServerMessage, { type: 'notice' }> => e.type === 'notice');
  const streamsOf = (cameraId: string) => t.app.live.activeStreams().filter((s) => s.key.startsWith(`${cameraId}@`));
  /** A viewer A of `camera` at the standard definition; then the ship's uplink backs up and A's stream drops to the lowest. */
  const watchedUntilDegraded = async (camera: string) => {
    const a = await viewer();
    a.send({ type: 'play', mode: 'live', cameraId: camera, templateId: STANDARD });
    await a.until((c) => c.event('codec', (e) => e.templateId === STANDARD) !== undefined, 10_000, 'A at the standard definition');
    agent.send({ type: 'link.queue', bufferedBytes: 500_000, queuedMs: 5_000 });
    agent.send({ type: 'link.queue', bufferedBytes: 500_000, queuedMs: 5_000 });
    await a.until((c) => c.event('codec', (e) => e.templateId === LOWEST) !== undefined, 10_000, 'A dropped to the lowest definition');
    return a;
  };
  /** Streams every running stream's remaining fragments at twice real time: the link keeps up (lag reports say clear). */
  const pace = () => {
    for (const [id] of running) {
      let next = 3;
      const timer = setInterval(() => {
        const f = clip.fragments[next++];
        if (!f || !running.has(id)) {
          clearInterval(timer);
          paced.delete(timer);
          return;
        }
        agent.sendFrame(BINARY_KIND.live, id, f);
      }, 50);
      paced.add(timer);
    }
  };

  beforeAll(async () => {
    clip = await loadClip(6);
    t = await build({
      live: { lingerMs: 200, definitionControl: { degradeAboveMs: 1_000, degradeAfterReports: 2, restoreBelowMs: 250, restoreAfterMs: 300, maxRestoreAfterMs: 1_000 } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    token = (await logon(t.app, 'demo')).token;
    agent = await RawAgent.connect(port, SHIP, await t.app.agentKeys.issue(SHIP), {
      hello: {},
      capabilities: ['live'],
      onMessage: (msg, a) => {
        if (msg.type === 'live.stop') running.delete(msg.streamId);
        if (msg.type !== 'live.start') return;
        for (const other of running.values()) {
          if (other.cameraId === msg.cameraId && other.encode.width === msg.encode.width) doubles.push(`${msg.cameraId}@${msg.encode.width}`);
        }
        running.set(msg.streamId, msg);
        a.send({ type: 'live.started', streamId: msg.streamId });
        a.sendFrame(BINARY_KIND.live, msg.streamId, clip.init);
        // The first fragments at once (the viewers play); the rest when the test paces them.
        for (const f of clip.fragments.slice(0, 3)) a.sendFrame(BINARY_KIND.live, msg.streamId, f);
      },
    });
    await agent.until(() => t.app.agents.get(SHIP)?.ready ?? false, 'the agent link ready');
  }, 60_000);
  afterEach(async () => {
    for (const timer of paced) clearInterval(timer);
    paced.clear();
    await Promise.all(viewers.splice(0).map((c) => c.close()));
    await expect.poll(() => t.app.live.activeStreams()).toEqual([]);
    // The ship hears each stop after shore drops the stream: wait for them, or a late one would
    // count in the next test.
    await expect.poll(() => running.size).toBe(0);
    agent.received.length = 0;
  });
  afterAll(async () => {
    await agent?.close();
    await t?.close();
  });

  it('a viewer switching to the definition another viewer watches joins that uplink; the one it left stops at once (no linger beside it)', async () => {
    const camera = 'S1001-C02-1';
    const a = await viewer();
    const b = await viewer();
    a.send({ type: 'play', mode: 'live', cameraId: camera, templateId: LOWEST });
    b.send({ type: 'play', mode: 'live', cameraId: camera, templateId: STANDARD });
    await b.until((c) => c.event('codec', (e) => e.templateId === STANDARD) !== undefined, 10_000, 'B at the standard definition');
    await a.until((c) => c.event('codec', (e) => e.templateId === LOWEST) !== undefined, 10_000, 'A at the lowest definition');
    expect(starts().map((s) => s.encode.width).sort()).toEqual([320, 640]);

    b.events.length = 0;
    b.send({ type: 'play', mode: 'live', cameraId: camera, templateId: LOWEST });
    await b.until((c) => c.event('codec', (e) => e.templateId === LOWEST) !== undefined, 10_000, 'B at the lowest definition');
    // B's old stream was dropped before B joined the other (no linger beside it), and the ship told to stop it; no third stream.
    expect(streamsOf(camera)).toEqual([expect.objectContaining({ viewers: 2, definition: LOWEST, lingering: false })]);
    await agent.until(() => agent.received.filter((m) => m.type === 'live.stop').length === 1, 'the old stream stopped');
    expect(starts()).toHaveLength(2);
    expect(doubles).toEqual([]);
  });

  it('a stream another viewer still watches keeps running when one viewer switches away; a replay of the same definition reuses it', async () => {
    const camera = 'S1001-C04-1';
    const a = await viewer();
    const b = await viewer();
    a.send({ type: 'play', mode: 'live', cameraId: camera, templateId: STANDARD });
    b.send({ type: 'play', mode: 'live', cameraId: camera, templateId: STANDARD });
    await b.until((c) => c.event('codec', (e) => e.templateId === STANDARD) !== undefined, 10_000, 'B playing');
    await a.until((c) => c.event('codec', (e) => e.templateId === STANDARD) !== undefined, 10_000, 'A playing');
    b.send({ type: 'play', mode: 'live', cameraId: camera, templateId: LOWEST });
    await b.until((c) => c.event('codec', (e) => e.templateId === LOWEST) !== undefined, 10_000, 'B at the lowest');
    // A still watches the standard stream: it runs on, and the ship runs one stream per definition.
    expect(agent.received.filter((m) => m.type === 'live.stop')).toHaveLength(0);
    expect(streamsOf(camera).map((s) => [s.definition, s.viewers]).sort()).toEqual([[LOWEST, 1], [STANDARD, 1]]);
    // A asks again for what it watches (a replay): the same stream, nothing new on the ship.
    a.events.length = 0;
    a.send({ type: 'play', mode: 'live', cameraId: camera, templateId: STANDARD });
    await a.until((c) => c.event('codec', (e) => e.templateId === STANDARD) !== undefined, 10_000, 'A again');
    expect(starts()).toHaveLength(2);
    expect(agent.received.filter((m) => m.type === 'live.stop')).toHaveLength(0);
  });

  it('a viewer asking for the lowest definition rides the stream a degraded link dropped to it, and gets its own when the link recovers', async () => {
    const camera = 'S1001-C03-1';
    const a = await watchedUntilDegraded(camera);
    expect(starts().map((s) => s.encode.width)).toEqual([640, 320]);

    // B asks for the lowest definition of the same camera: the stream carrying it is A's.
    const b = await viewer();
    b.send({ type: 'play', mode: 'live', cameraId: camera, templateId: LOWEST });
    await b.until((c) => c.event('codec', (e) => e.templateId === LOWEST) !== undefined && c.chunks.length > 1, 10_000, 'B playing the lowest definition');
    expect(starts()).toHaveLength(2);
    expect(streamsOf(camera)).toEqual([expect.objectContaining({ key: `${camera}@${STANDARD}+audio`, viewers: 2, definition: LOWEST })]);
    // B asked for this definition: no "the network is bad, lowest definition" notice for it.
    expect(notices(b)).toEqual([]);

    // The link keeps up again: A steps back up, and B gets a stream of its own at the lowest.
    pace();
    await a.until((c) => notices(c).some((n) => n.code === 'definitionRestored'), 15_000, 'A restored');
    await a.until((c) => c.event('codec', (e) => e.templateId === STANDARD && c.events.indexOf(e) > c.events.findIndex((x) => x.type === 'notice' && x.code === 'definitionRestored')) !== undefined, 10_000, 'A back at the standard definition');
    await expect.poll(() => streamsOf(camera).map((s) => [s.key, s.viewers, s.definition]).sort()).toEqual([
      [`${camera}@${LOWEST}+audio`, 1, LOWEST],
      [`${camera}@${STANDARD}+audio`, 1, STANDARD],
    ]);
    // The carrier steps up first (its 320 stream stopped), then B's own 320 stream starts: never two at once.
    expect(starts().map((s) => s.encode.width)).toEqual([640, 320, 640, 320]);
    expect(notices(b)).toEqual([]);
    expect(doubles).toEqual([]);
  }, 30_000);

  it('a degraded verdict nothing measured since goes stale: once nobody watched the ship for the hold time, a new view starts at what it asks', async () => {
    const camera = 'S1001-C05-1';
    const a = await watchedUntilDegraded(camera);
    await a.close();
    await expect.poll(() => t.app.live.activeStreams()).toEqual([]);

    // Nothing streams from the ship, so nothing measures its link: after the longest hold the verdict is stale.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const b = await viewer();
    b.send({ type: 'play', mode: 'live', cameraId: camera, templateId: STANDARD });
    await b.until((c) => c.event('codec', () => true) !== undefined, 10_000, 'B playing');
    expect(b.event('codec', () => true)?.templateId).toBe(STANDARD);
    expect(notices(b)).toEqual([]);
    expect(starts().map((s) => s.encode.width)).toEqual([640, 320, 640]);
  }, 30_000);
});
