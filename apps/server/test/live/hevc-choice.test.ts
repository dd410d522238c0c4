import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND, type CameraState, type MediaServerMessage, type ShoreMessage } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { type Clip, codecClip } from '../helpers/codec-clips.ts';
import { MediaClient } from '../helpers/media-client.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
/** S1001's satellite tier in H.264 (seed.ts): a definition whose own codec is H.264. */
const TEMPLATE = 11;
const OTHER_CAMERA = 'S1001-C02-1';
const THIRD_CAMERA = 'S1001-C03-1';
const FOURTH_CAMERA = 'S1001-C04-1';

type Codec = Extract<MediaServerMessage, { type: 'codec' }>;

/**
 * An H.265 camera: a viewer that decodes H.265 gets the camera's own pictures, the others H.264
 * that the ship transcodes once for all of them; while both kinds watch, both go up (one definition,
 * two streams), and each viewer's codec event says what plays and whether the ship transcodes.
 * Through the real relay, with an agent that answers as the real one does for an H.265 camera.
 */
describe('live codec of an H.265 camera', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  const clips = {} as Record<'hevc' | 'h264', Clip>;

  beforeAll(async () => {
    clips.hevc = await codecClip('hevc');
    clips.h264 = await codecClip('h264');
    t = await build({});
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    token = (await logon(t.app, 'demo')).token;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /**
   * An agent whose camera sends H.265: passed through when asked (and it fits: `fits`), else
   * transcoded to H.264. `cameras`: its hello's camera states; `hold`: it answers each live.start
   * only once that settles (a satellite link's round trip, a camera session opening).
   */
  const hevcCameraAgent = async (fits = true, cameras: CameraState[] = [], hold?: Promise<void>) => {
    const key = await t.app.agentKeys.issue(SHIP);
    return RawAgent.connect(port, SHIP, key, {
      hello: { cameras },
      capabilities: ['live'],
      onMessage: (msg: ShoreMessage, a: RawAgent) => {
        if (msg.type !== 'live.start') return;
        const pass = fits && msg.encode.passThrough?.includes('h265') === true;
        const c = pass ? clips.hevc : clips.h264;
        const answer = () => {
          // A stream stopped meanwhile is not answered (the real agent has forgotten it).
          if (a.of('live.stop').some((m) => m.streamId === msg.streamId)) return;
          a.send({ type: 'live.started', streamId: msg.streamId, cameraCodec: 'h265', transcoded: !pass });
          a.sendFrame(BINARY_KIND.live, msg.streamId, c.init.data);
          for (const f of c.fragments) a.sendFrame(BINARY_KIND.live, msg.streamId, f.data);
        };
        if (hold) void hold.then(answer);
        else answer();
      },
    });
  };
  const lastCodec = (c: MediaClient) => c.events.filter((e): e is Codec => e.type === 'codec').at(-1);
  const passThroughAsked = (agent: RawAgent, cameraId = CAMERA) =>
    agent
      .of('live.start')
      .filter((m) => m.cameraId === cameraId)
      .map((m) => m.encode.passThrough?.includes('h265') === true);

  it('sends hvc1 to viewers that decode it and transcoded avc1 to the others, both while both kinds watch', async () => {
    expect(clips.hevc.init.codec).toMatch(/^hvc1\./);
    const agent = await hevcCameraAgent();
    const first = await MediaClient.open(port, token);
    const h264Viewer = await MediaClient.open(port, token);
    const hevcViewer = await MediaClient.open(port, token);
    try {
      // The first viewer decodes H.265: the camera's own pictures, and the cell can say so.
      first.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: TEMPLATE, decoders: ['avc1', 'hvc1'] });
      await first.until((c) => lastCodec(c)?.mime.includes('hvc1') === true && c.chunks.length > 2, 15_000, 'an hvc1 stream');
      expect(lastCodec(first)).toMatchObject({ cameraCodec: 'h265', transcoded: false });
      expect(passThroughAsked(agent)).toEqual([true]);

      // A viewer that says nothing of decoders (H.264 only): H.264, transcoded on the ship, on a
      // stream of its own; the first viewer keeps the camera's H.265.
      h264Viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: TEMPLATE });
      await h264Viewer.until((c) => lastCodec(c)?.mime.includes('avc1') === true && c.chunks.length > 2, 15_000, 'an avc1 stream');
      expect(lastCodec(h264Viewer)).toMatchObject({ cameraCodec: 'h265', transcoded: true });
      expect(passThroughAsked(agent)).toEqual([true, false]);
      expect(first.events.filter((e) => e.type === 'codec')).toHaveLength(1);

      // Another viewer that decodes H.265 (hev1 is H.265 too) shares the first one's stream, and
      // another H.264-only one shares the transcoded stream: still two streams, one each way.
      const more = [await MediaClient.open(port, token), await MediaClient.open(port, token)];
      try {
        hevcViewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: TEMPLATE, decoders: ['avc1', 'hev1'] });
        more[0]?.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: TEMPLATE, decoders: ['avc1', 'vp09'] });
        await hevcViewer.until((c) => lastCodec(c)?.mime.includes('hvc1') === true && c.chunks.length > 1, 15_000, 'the shared hvc1 stream');
        await more[0]?.until((c) => lastCodec(c)?.mime.includes('avc1') === true && c.chunks.length > 1, 15_000, 'the shared avc1 stream');
        expect(lastCodec(hevcViewer)).toMatchObject({ cameraCodec: 'h265', transcoded: false });
        expect(passThroughAsked(agent)).toEqual([true, false]);
        expect(agent.of('live.stop')).toHaveLength(0);

        // The H.264-only viewers leave, then an H.265 viewer comes: it joins the H.265 stream, and
        // no H.264 one is asked again.
        await h264Viewer.close();
        await more[0]?.close();
        more[1]?.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: TEMPLATE, decoders: ['hvc1'] });
        await more[1]?.until((c) => lastCodec(c)?.mime.includes('hvc1') === true && c.chunks.length > 1, 15_000, 'the hvc1 stream again');
        expect(passThroughAsked(agent)).toEqual([true, false]);
      } finally {
        for (const c of more) await c?.close();
      }
    } finally {
      await first.close();
      await h264Viewer.close();
      await hevcViewer.close();
      await agent.close();
    }
  });

  it('gives viewers that decode H.265 a stream of their own beside the H.264 one that came first', async () => {
    const agent = await hevcCameraAgent();
    const h264Viewer = await MediaClient.open(port, token);
    const hevcViewer = await MediaClient.open(port, token);
    try {
      // Another camera: its first stream (H.264, for a viewer that decodes nothing else) tells shore it sends H.265.
      h264Viewer.send({ type: 'play', mode: 'live', cameraId: OTHER_CAMERA, templateId: TEMPLATE });
      await h264Viewer.until((c) => lastCodec(c)?.mime.includes('avc1') === true && c.chunks.length > 2, 15_000, 'an avc1 stream');
      hevcViewer.send({ type: 'play', mode: 'live', cameraId: OTHER_CAMERA, templateId: TEMPLATE, decoders: ['avc1', 'hvc1'] });
      await hevcViewer.until((c) => lastCodec(c)?.mime.includes('hvc1') === true && c.chunks.length > 2, 15_000, 'an hvc1 stream');
      expect(passThroughAsked(agent, OTHER_CAMERA)).toEqual([false, true]);
      expect(h264Viewer.events.filter((e) => e.type === 'codec')).toHaveLength(1);
    } finally {
      await h264Viewer.close();
      await hevcViewer.close();
      await agent.close();
    }
  });

  it('knows from the hello of the ship that a camera sends H.265 before any stream of it ran here (a shore just restarted): viewers that decode it get it from the start, the others H.264', async () => {
    let release = () => undefined as void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const agent = await hevcCameraAgent(true, [{ cameraId: FOURTH_CAMERA, online: true, recording: true, recordingSince: Date.now(), codec: 'h265' }], hold);
    const hevcViewer = await MediaClient.open(port, token);
    const h264Viewer = await MediaClient.open(port, token);
    try {
      await expect.poll(() => t.app.live.reportedCameraCodec(SHIP, FOURTH_CAMERA)).toBe('h265');
      // Both kinds of viewer come before the ship answers (as every viewer reconnects at once to a
      // restarted shore, and a satellite link takes a second to answer): each gets its own stream.
      hevcViewer.send({ type: 'play', mode: 'live', cameraId: FOURTH_CAMERA, templateId: TEMPLATE, decoders: ['avc1', 'hvc1'] });
      h264Viewer.send({ type: 'play', mode: 'live', cameraId: FOURTH_CAMERA, templateId: TEMPLATE });
      const watching = () => t.app.live.activeStreams().filter((s) => s.key.startsWith(`${FOURTH_CAMERA}@`)).reduce((n, s) => n + s.viewers, 0);
      await expect.poll(watching).toBe(2);
      release();
      await hevcViewer.until((c) => lastCodec(c)?.mime.includes('hvc1') === true && c.chunks.length > 2, 15_000, 'an hvc1 stream');
      await h264Viewer.until((c) => lastCodec(c)?.mime.includes('avc1') === true && c.chunks.length > 2, 15_000, 'an avc1 stream');
      // Two streams from the start: the first viewer's was not restarted in H.264 for the second.
      expect(passThroughAsked(agent, FOURTH_CAMERA)).toEqual([true, false]);
      expect(hevcViewer.events.filter((e) => e.type === 'codec')).toHaveLength(1);
      expect(agent.of('live.stop')).toHaveLength(0);
      expect(t.app.live.activeStreams().filter((s) => s.key.startsWith(`${FOURTH_CAMERA}@`)).map((s) => s.key).sort()).toEqual([
        `${FOURTH_CAMERA}@${TEMPLATE}+audio`,
        `${FOURTH_CAMERA}@${TEMPLATE}+audio+hevc`,
      ]);

      // The camera was set to H.264 since (its report says so): a new viewer that decodes H.265 joins the one stream.
      agent.send({ type: 'camera', cameraId: FOURTH_CAMERA, online: true, recording: true, recordingSince: Date.now(), codec: 'h264' });
      await expect.poll(() => t.app.live.reportedCameraCodec(SHIP, FOURTH_CAMERA)).toBe('h264');
      await hevcViewer.close();
      await expect.poll(() => t.app.live.activeStreams().filter((s) => s.key.endsWith('+hevc') && s.viewers > 0).length).toBe(0);
      const another = await MediaClient.open(port, token);
      try {
        another.send({ type: 'play', mode: 'live', cameraId: FOURTH_CAMERA, templateId: TEMPLATE, decoders: ['avc1', 'hvc1'] });
        await another.until((c) => lastCodec(c) !== undefined && c.chunks.length > 1, 15_000, 'a stream');
        expect(t.app.live.activeStreams().find((s) => s.key === `${FOURTH_CAMERA}@${TEMPLATE}+audio`)?.viewers).toBe(2);
      } finally {
        await another.close();
      }
    } finally {
      await hevcViewer.close();
      await h264Viewer.close();
      await agent.close();
    }
  });

  it('keeps one H.264 stream for everyone when the camera does not fit the definition (the ship transcodes it anyway)', async () => {
    const agent = await hevcCameraAgent(false);
    const viewers = [await MediaClient.open(port, token), await MediaClient.open(port, token), await MediaClient.open(port, token)];
    try {
      // The first viewer decodes H.265: asked for it, the ship transcodes (too big): shore learns it.
      viewers[0]?.send({ type: 'play', mode: 'live', cameraId: THIRD_CAMERA, templateId: TEMPLATE, decoders: ['avc1', 'hvc1'] });
      await viewers[0]?.until((c) => lastCodec(c)?.mime.includes('avc1') === true && c.chunks.length > 2, 15_000, 'an avc1 stream');
      expect(lastCodec(viewers[0] as MediaClient)).toMatchObject({ cameraCodec: 'h265', transcoded: true });
      // An H.264-only viewer and another H.265 one join the same stream: no restart, no second stream.
      viewers[1]?.send({ type: 'play', mode: 'live', cameraId: THIRD_CAMERA, templateId: TEMPLATE });
      viewers[2]?.send({ type: 'play', mode: 'live', cameraId: THIRD_CAMERA, templateId: TEMPLATE, decoders: ['hvc1'] });
      for (const v of viewers.slice(1)) await v.until((c) => lastCodec(c)?.mime.includes('avc1') === true && c.chunks.length > 1, 15_000, 'the shared avc1 stream');
      expect(passThroughAsked(agent, THIRD_CAMERA)).toEqual([true]);
      expect(agent.of('live.stop')).toHaveLength(0);
    } finally {
      for (const v of viewers) await v.close();
      await agent.close();
    }
  });
});
