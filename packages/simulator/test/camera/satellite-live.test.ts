import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentStreamMessage, type EncodeSpec, decodeStreamFrame } from '@ship-cctv/protocol';
import { Fmp4Splitter, type InitSegment, type MediaFragment, readProducerTime } from '@ship-cctv/media';
import { type CameraConfig, CameraSources, type LiveLink, LiveStreams, ffmpegVideoCodecs } from '@ship-cctv/agent';
import { run, tempDir } from '../../../../apps/agent/test/media/helpers.ts';
import { syntheticCameras } from '../../src/camera/synthetic-camera.ts';

/** What the streams sent: every payload of each stream, with its arrival time, and the JSON messages. */
class RecordingLink implements LiveLink {
  readonly payloads = new Map<number, { at: number; bytes: Uint8Array }[]>();
  readonly messages: AgentStreamMessage[] = [];
  sendJson(msg: AgentStreamMessage): void {
    this.messages.push(msg);
  }
  sendBinary(frame: Uint8Array): void {
    const d = decodeStreamFrame(frame);
    if (!d) return;
    const list = this.payloads.get(d.streamId) ?? [];
    list.push({ at: Date.now(), bytes: new Uint8Array(d.payload) });
    this.payloads.set(d.streamId, list);
  }
  bufferedAmount(): number {
    return 0;
  }
  units(streamId: number): (InitSegment | MediaFragment)[] {
    const splitter = new Fmp4Splitter();
    return (this.payloads.get(streamId) ?? []).flatMap((p) => splitter.push(p.bytes)).filter((u): u is InitSegment | MediaFragment => u.kind === 'init' || u.kind === 'fragment');
  }
}

const CAMERAS: CameraConfig[] = [{ cameraId: 'S1-C01-1', source: 'synthetic', name: 'Bridge' }];
const tmp = tempDir('satellite-live-');
afterAll(() => tmp.remove());

/** The satellite tier at its ceiling (320×180, 3 fps, 32 kbit/s; seeded at 16) in a codec. */
const satellite = (codec: EncodeSpec['codec']): EncodeSpec => ({ width: 320, height: 180, frameRate: 3, bitrateKbps: 32, codec });

/**
 * The agent's live stream at the satellite tier, from the synthetic camera (a moving, noisy scene
 * with a running clock), in AV1 and in H.264 side by side for 24 s: what goes up the link decodes
 * with ffmpeg, keeps to the tier's size, rate and keyframe interval, and to its bitrate.
 */
describe('live at the satellite tier', () => {
  it('sends AV1 (av01 with its av1C) and H.264 that ffmpeg decodes, each within the tier’s 32 kbit/s', async () => {
    expect(ffmpegVideoCodecs().has('av1')).toBe(true);
    const sources = new CameraSources(CAMERAS, { kinds: [syntheticCameras()] });
    const streams = new LiveStreams(sources);
    const link = new RecordingLink();
    streams.attach(link);
    const started = Date.now();
    streams.handle({ type: 'live.start', streamId: 1, cameraId: 'S1-C01-1', encode: satellite('av1') });
    streams.handle({ type: 'live.start', streamId: 2, cameraId: 'S1-C01-1', encode: satellite('h264') });
    // 24 s: the first keyframe, two more at 10 s and 20 s, and enough pictures to measure the rate.
    await expect.poll(() => Math.min(link.units(1).length, link.units(2).length), { timeout: 60_000, interval: 500 }).toBeGreaterThan(1 + 24 * 3);
    await streams.stopAll();

    const figures: string[] = [];
    for (const [id, codec, entry] of [[1, 'av1', 'av01'], [2, 'h264', 'avc1']] as const) {
      const units = link.units(id);
      const init = units[0];
      if (init?.kind !== 'init') throw new Error(`stream ${id} did not start with an init segment`);
      // The init names the codec as the players are told it (av01.0.LLM.08 from the av1C).
      expect(init.codec.startsWith(entry)).toBe(true);
      if (codec === 'av1') expect(init.codec).toMatch(/^av01\.0\.\d\dM\.08$/);
      expect([init.width, init.height]).toEqual([320, 180]);
      const fragments = units.filter((u): u is MediaFragment => u.kind === 'fragment');
      // Keyframes every 10 s (30 pictures at 3 fps), the first one first.
      const keys = fragments.flatMap((f, i) => (f.keyframe ? [i] : []));
      expect(keys.slice(0, 3)).toEqual([0, 30, 60]);
      // Every picture says when it left the ship's encoder (prft: the cell's latency figure), in
      // either codec's way out (FLV packager, MP4 muxer), within the test's clock.
      for (const f of fragments) {
        const produced = readProducerTime(f.data);
        expect(produced?.wallMs, `${codec} picture ${fragments.indexOf(f)}`).toBeGreaterThan(started);
        expect(produced?.wallMs).toBeLessThanOrEqual(Date.now());
      }

      // What ffmpeg makes of the bytes as they went up: the codec, the size, every picture decoded.
      const file = join(tmp.dir, `stream-${id}.mp4`);
      writeFileSync(file, Buffer.concat((link.payloads.get(id) ?? []).map((p) => p.bytes)));
      const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-count_frames', '-show_entries', 'stream=codec_name,width,height,nb_read_frames', '-of', 'json', file]);
      const probed = (JSON.parse(stdout) as { streams: { codec_name: string; width: number; height: number; nb_read_frames: string }[] }).streams[0];
      expect(probed).toMatchObject({ codec_name: codec, width: 320, height: 180 });
      expect(Number(probed?.nb_read_frames)).toBe(fragments.length);

      // The rate on the link, boxes included, over whole keyframe intervals (from the first
      // keyframe to the third: 20 s of media).
      const bytes = fragments.slice(0, 60).reduce((sum, f) => sum + f.data.length, 0);
      const kbps = (bytes * 8) / 20 / 1000;
      figures.push(`${codec} ${kbps.toFixed(1)} kbit/s`);
      expect(kbps).toBeGreaterThan(8);
      expect(kbps).toBeLessThanOrEqual(32 * 1.1);
    }
    // The figures, for the README's table (measured, not assumed).
    console.log(`satellite tier on the link, 320×180 at 3 fps, 20 s: ${figures.join(', ')}`);
  }, 90_000);

  it('an agent that encodes H.264 only refuses AV1 with its reason (shore never asks it: its hello does not say AV1)', async () => {
    const sources = new CameraSources(CAMERAS, { kinds: [syntheticCameras()] });
    const streams = new LiveStreams(sources, { codecs: ['h264'] });
    const link = new RecordingLink();
    streams.attach(link);
    streams.handle({ type: 'live.start', streamId: 7, cameraId: 'S1-C01-1', encode: satellite('av1') });
    await expect.poll(() => link.messages.length).toBeGreaterThan(0);
    expect(link.messages[0]).toMatchObject({ type: 'live.failed', streamId: 7 });
    expect(link.messages[0]?.type === 'live.failed' ? link.messages[0].message : '').toMatch(/codec av1 is not supported \(this agent encodes h264\)/);
    expect(link.payloads.size).toBe(0);
  });
});
