import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND, ENCODES_AV1_CAPABILITY, type ShoreMessage } from '@ship-cctv/protocol';
import { Fmp4Splitter, type InitSegment, type MediaFragment } from '@ship-cctv/media';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { MediaClient } from '../helpers/media-client.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
/** The demo's satellite tier of S1001's group: 11 in H.264, 12 in AV1 (seed.ts). */
const SATELLITE_AV1 = 12;
const run = promisify(execFile);

interface Clip {
  init: InitSegment;
  fragments: MediaFragment[];
}

/** A few seconds of the satellite tier in `codec`, cut as the agent sends it. */
async function clip(dir: string, codec: 'h264' | 'av1'): Promise<Clip> {
  const file = join(dir, `${codec}.mp4`);
  const encoder =
    codec === 'av1'
      ? ['-c:v', 'libsvtav1', '-preset', '12', '-svtav1-params', 'pred-struct=1:rc=2:lp=1', '-b:v', '32k']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '32k'];
  await run('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=3', '-t', '3',
    ...encoder, '-pix_fmt', 'yuv420p', '-g', '3', '-flags:v', '+global_header',
    '-movflags', '+frag_every_frame+empty_moov+default_base_moof', '-f', 'mp4', file,
  ], { env: { ...process.env, SVT_LOG: '1' } });
  const units = new Fmp4Splitter().push(new Uint8Array(await readFile(file)));
  const init = units.find((u) => u.kind === 'init');
  if (init?.kind !== 'init') throw new Error('no init segment');
  return { init, fragments: units.filter((u): u is MediaFragment => u.kind === 'fragment') };
}

/**
 * A definition in AV1 goes up in AV1 only while every viewer of its stream says it decodes AV1 and
 * the ship's agent says it encodes it; otherwise the same stream goes up in H.264 — one uplink either
 * way. Through the real relay, with an agent that answers each live.start with a clip in the codec
 * asked.
 */
describe('live codec: AV1 only when every viewer decodes it', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  const clips = {} as Record<'h264' | 'av1', Clip>;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'live-codec-'));
    try {
      clips.h264 = await clip(dir, 'h264');
      clips.av1 = await clip(dir, 'av1');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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

  /** An agent that sends the clip of the codec each live.start asks for. */
  const agentFor = async (capabilities: string[]) => {
    const key = await t.app.agentKeys.issue(SHIP);
    return RawAgent.connect(port, SHIP, key, {
      hello: {},
      capabilities,
      onMessage: (msg: ShoreMessage, a: RawAgent) => {
        if (msg.type !== 'live.start') return;
        const c = clips[msg.encode.codec];
        a.send({ type: 'live.started', streamId: msg.streamId });
        a.sendFrame(BINARY_KIND.live, msg.streamId, c.init.data);
        for (const f of c.fragments) a.sendFrame(BINARY_KIND.live, msg.streamId, f.data);
      },
    });
  };
  const codecsAsked = (agent: RawAgent) => agent.of('live.start').map((m) => m.encode.codec);
  /** The mime of the last codec event the viewer got: the codec it plays now. */
  const lastMime = (c: MediaClient) => c.events.flatMap((e) => (e.type === 'codec' ? [e.mime] : [])).at(-1);

  it('sends AV1 to viewers that all decode it, H.264 to all while one does not, and AV1 again when that one leaves', async () => {
    expect(clips.av1.init.codec).toMatch(/^av01\.0\.\d\dM\.08$/);
    const agent = await agentFor(['live', ENCODES_AV1_CAPABILITY]);
    const av1Viewer = await MediaClient.open(port, token);
    const h264Viewer = await MediaClient.open(port, token);
    try {
      av1Viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: SATELLITE_AV1, decoders: ['avc1', 'av01', 'vp09-someday'] });
      await av1Viewer.until((c) => lastMime(c)?.includes('av01') === true && c.chunks.length > 2, 15_000, 'an AV1 stream');
      expect(codecsAsked(agent)).toEqual(['av1']);
      expect(av1Viewer.event('codec')).toMatchObject({ templateId: SATELLITE_AV1, width: 320, height: 180 });
      expect(agent.of('live.start')[0]?.encode).toMatchObject({ width: 320, height: 180, frameRate: 3, bitrateKbps: 16, codec: 'av1' });

      // A viewer whose play says nothing of decoders (H.264 only) joins the same definition: the one
      // stream goes on in H.264 for both.
      h264Viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: SATELLITE_AV1 });
      await h264Viewer.until((c) => lastMime(c)?.includes('avc1') === true && c.chunks.length > 2, 15_000, 'an H.264 stream');
      await av1Viewer.until((c) => lastMime(c)?.includes('avc1') === true, 15_000, 'the switch to H.264');
      expect(codecsAsked(agent)).toEqual(['av1', 'h264']);
      expect(agent.of('live.stop')).toHaveLength(1);
      expect(h264Viewer.events.filter((e) => e.type === 'codec').every((e) => e.type === 'codec' && e.mime.includes('avc1'))).toBe(true);

      // The H.264-only viewer leaves: the one left decodes AV1, so AV1 it gets.
      await h264Viewer.close();
      await av1Viewer.until((c) => lastMime(c)?.includes('av01') === true, 15_000, 'AV1 again');
      expect(codecsAsked(agent)).toEqual(['av1', 'h264', 'av1']);
    } finally {
      await av1Viewer.close();
      await h264Viewer.close();
      await agent.close();
    }
  });

  it('sends H.264 when the ship’s agent does not say it encodes AV1 (an older agent), whatever the viewer decodes', async () => {
    const agent = await agentFor(['live']);
    const viewer = await MediaClient.open(port, token);
    try {
      viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: SATELLITE_AV1, decoders: ['avc1', 'av01'] });
      await viewer.until((c) => lastMime(c)?.includes('avc1') === true && c.chunks.length > 2, 15_000, 'an H.264 stream');
      expect(codecsAsked(agent)).toEqual(['h264']);
    } finally {
      await viewer.close();
      await agent.close();
    }
  });

  it('refuses a malformed decoders list with a clear error, and ignores entries it does not know', async () => {
    const viewer = await MediaClient.open(port, token);
    try {
      for (const decoders of ['av01', [1, 2], ['av01', ''], ['av01', 'a'.repeat(33)], ['av01', 'av01;drop'], Array.from({ length: 17 }, () => 'avc1')]) {
        viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: SATELLITE_AV1, decoders });
        const error = await viewer.nextError();
        expect(error.code).toBe('badRequest');
        expect(error.message).toContain('"decoders"');
      }
      // Nothing started for any of them.
      expect(viewer.events.some((e) => e.type === 'status' && e.state === 'starting')).toBe(false);
      // Unknown prefixes are not an error: the play starts.
      viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: SATELLITE_AV1, decoders: ['avc1', 'vp09', 'future.codec.1'] });
      await viewer.until((c) => c.events.some((e) => e.type === 'status' && e.state !== 'ended'), 10_000, 'the play to start');
      expect(viewer.events.filter((e) => e.type === 'error')).toHaveLength(6);
    } finally {
      await viewer.close();
    }
  });
});
