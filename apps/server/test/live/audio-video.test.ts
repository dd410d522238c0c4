import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND, type ShoreMessage } from '@ship-cctv/protocol';
import { Fmp4Splitter, type InitSegment, type MediaFragment } from '@ship-cctv/media';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { MediaClient } from '../playback/helpers.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const run = promisify(execFile);

/**
 * A camera with a microphone, live through the real relay: the ship sends picture and sound in one
 * fragmented MP4 (as ffmpeg cuts it at every frame of either track), and viewers get both — the
 * codec event naming both codecs, every sound fragment — and a late viewer starts at a picture
 * keyframe, never at a sound fragment.
 */
describe('live audio + video through the relay', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  let init: InitSegment;
  let fragments: MediaFragment[];

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'live-av-'));
    try {
      const file = join(dir, 'av.mp4');
      await run('ffmpeg', [
        '-v', 'error', '-y',
        '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=10', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '3',
        '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p', '-g', '10', '-flags:v', '+global_header',
        '-c:a', 'aac', '-b:a', '64k',
        '-movflags', '+frag_every_frame+empty_moov+default_base_moof', '-f', 'mp4', file,
      ]);
      const units = new Fmp4Splitter().push(new Uint8Array(await readFile(file)));
      const first = units.find((u) => u.kind === 'init');
      if (first?.kind !== 'init') throw new Error('no init segment');
      init = first;
      fragments = units.filter((u): u is MediaFragment => u.kind === 'fragment');
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

  it('carries both tracks to every viewer; a late viewer starts at a picture keyframe', async () => {
    const key = await t.app.agentKeys.issue(SHIP);
    let sendMore: (() => void) | undefined;
    const agent = await RawAgent.connect(port, SHIP, key, {
      hello: {},
      capabilities: ['live'],
      onMessage: (msg: ShoreMessage, a: RawAgent) => {
        if (msg.type !== 'live.start') return;
        a.send({ type: 'live.started', streamId: msg.streamId });
        a.sendFrame(BINARY_KIND.live, msg.streamId, init.data);
        // The first second now, the rest when the test says.
        const firstKey = fragments.findIndex((f) => f.keyframe);
        const cut = fragments.findIndex((f, i) => i > firstKey && f.keyframe);
        for (const f of fragments.slice(0, cut + 3)) a.sendFrame(BINARY_KIND.live, msg.streamId, f.data);
        sendMore = () => {
          for (const f of fragments.slice(cut + 3)) a.sendFrame(BINARY_KIND.live, msg.streamId, f.data);
        };
      },
    });
    const first = await MediaClient.open(port, token);
    try {
      first.send({ type: 'play', mode: 'live', cameraId: CAMERA });
      await first.until((c) => c.event('codec') !== undefined && c.chunks.length > 5, 10_000, 'codec and fragments');
      const codec = first.event('codec');
      expect(codec?.mime).toBe(`video/mp4; codecs="${init.codec},mp4a.40.2"`);

      // A second viewer joins mid-GOP: init, then fragments from the latest picture keyframe.
      const late = await MediaClient.open(port, token);
      try {
        late.send({ type: 'play', mode: 'live', cameraId: CAMERA });
        await late.until((c) => c.chunks.length >= 2, 10_000, 'init and the cached GOP');
        const splitter = new Fmp4Splitter();
        const got = late.chunks.flatMap((c) => splitter.push(c));
        expect(got[0]?.kind).toBe('init');
        const firstFragment = got.find((u): u is MediaFragment => u.kind === 'fragment');
        expect(firstFragment?.keyframe).toBe(true);
        expect(firstFragment?.tracks.map((r) => r.trackId)).toEqual([init.trackId]);

        sendMore?.();
        // The first viewer joined before any byte: it starts at the first picture keyframe and misses nothing after it.
        const fromKey = fragments.slice(fragments.findIndex((f) => f.keyframe));
        await first.until((c) => c.chunks.length === 1 + fromKey.length, 10_000, 'every fragment');
        // Every byte of sound reached the first viewer, in order, as the ship sent it.
        const all = new Fmp4Splitter();
        const relayed = first.chunks.flatMap((c) => all.push(c)).filter((u): u is MediaFragment => u.kind === 'fragment');
        const audioId = init.tracks.find((tr) => tr.kind === 'audio')?.trackId;
        const soundSent = fromKey.filter((f) => f.tracks.some((r) => r.trackId === audioId));
        const soundGot = relayed.filter((f) => f.tracks.some((r) => r.trackId === audioId));
        expect(soundSent.length).toBeGreaterThan(100);
        expect(soundGot.map((f) => f.sequenceNumber)).toEqual(soundSent.map((f) => f.sequenceNumber));
      } finally {
        await late.close();
      }
    } finally {
      await first.close();
      await agent.close();
    }
  });
});
