/**
 * Live-sound benchmark: what sound costs on the ship's uplink. Prints figures; not part of npm test.
 * Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/live-audio.bench.ts [--quick] [--parts=rates,definitions,start]
 *
 * 1. rates: the synthetic camera's sound alone (hum and ticks, 60 s rendered as fast as ffmpeg
 *    goes) encoded by ffmpeg's native AAC-LC encoder, mono, at 16 kHz and 16/20/24 kbit/s and at
 *    24 kHz 24 kbit/s: AAC bytes per minute (the frames, no container).
 * 2. definitions: the agent's live streams (LiveStreams, the synthetic camera in real time, FLV
 *    repackaged into the link's fMP4) at the demo fleet's three definitions, sound off and on: link
 *    bytes per minute, the sound frames' bytes, the boxes the sound adds (the second traf of each
 *    picture's fragment), the sound's share of the stream; and how late each picture leaves the
 *    agent relative to the first (median and p95 of arrival − media time, minus the smallest), so
 *    a picture held back by the sound would show.
 * 3. start: live.start to the first byte on the link, sound off, on, and on with the speaker feed
 *    mixed in (5 runs each, median).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { decodeStreamFrame, type EncodeSpec } from '@ship-cctv/protocol';
import { RelaySplitter, type MediaFragment } from '../../../apps/server/src/core/media/fmp4.ts';
import { CameraSources, LIVE_SOUND, type LiveLink, LiveStreams, type SoundSpec } from '@ship-cctv/agent';
import { syntheticCameraArgs, syntheticCameras } from '@ship-cctv/simulator';
import { FlvReader } from '../../../apps/agent/src/media/flv.ts';

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const PARTS = new Set((argv.find((a) => a.startsWith('--parts='))?.slice(8) ?? 'rates,definitions,start').split(','));
const WINDOW_S = QUICK ? 8 : 20;
const run = promisify(execFile);

const DEFINITIONS: { name: string; encode: EncodeSpec }[] = [
  { name: 'Smooth 320×180@5 150k', encode: { width: 320, height: 180, frameRate: 5, bitrateKbps: 150, codec: 'h264' } },
  { name: 'Standard 640×360@10 400k', encode: { width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' } },
  { name: 'HD 1280×720@15 1200k', encode: { width: 1280, height: 720, frameRate: 15, bitrateKbps: 1200, codec: 'h264' } },
];

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

// ── 1. sound rates ─────────────────────────────────────────────────────────────────────────────

async function soundBytesPerMinute(spec: SoundSpec): Promise<number> {
  const args = syntheticCameraArgs({
    cameraName: 'Bench',
    encode: { width: 160, height: 90, frameRate: 1, bitrateKbps: 16, codec: 'h264' },
    startEpochMs: Date.UTC(2026, 0, 1),
    realtime: false,
    durationSeconds: 60,
    output: 'flv',
    audio: { spec },
  });
  // The sound comes out of fd 3: send it to stdout and the pictures nowhere.
  const cmd = `ffmpeg ${args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ')} 3>&1 1>/dev/null`;
  const { stdout } = await run('sh', ['-c', cmd], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  let bytes = 0;
  for (const item of new FlvReader().push(stdout as unknown as Buffer)) if (item.kind === 'audio') bytes += item.data.length;
  return bytes;
}

async function rates(): Promise<void> {
  console.log('1. sound alone: AAC-LC mono, 60 s of the synthetic camera (engine hum + tick), frame bytes per minute');
  for (const spec of [
    { sampleRate: 16_000, channels: 1, bitrateKbps: 16 },
    { sampleRate: 16_000, channels: 1, bitrateKbps: 20 },
    { sampleRate: 16_000, channels: 1, bitrateKbps: 24 },
    { sampleRate: 24_000, channels: 1, bitrateKbps: 24 },
  ]) {
    const bytes = await soundBytesPerMinute(spec);
    const chosen = spec.sampleRate === LIVE_SOUND.sampleRate && spec.bitrateKbps === LIVE_SOUND.bitrateKbps ? '  ← chosen (LIVE_SOUND)' : '';
    console.log(`   ${spec.sampleRate / 1000} kHz ${spec.bitrateKbps} kbit/s: ${kb(bytes)}/min (${((bytes * 8) / 60 / 1000).toFixed(1)} kbit/s)${chosen}`);
  }
}

// ── 2. definitions, sound off and on ────────────────────────────────────────────────────────────

interface StreamFigures {
  linkBytes: number;
  soundBytes: number;
  soundTrafBytes: number;
  fragments: number;
  lateMedianMs: number;
  lateP95Ms: number;
  /** Per fragment: its picture's end − the end of all sound sent so far (ms): how far the sound trails. */
  soundBehindMedianMs: number;
  soundBehindP95Ms: number;
}

async function liveStream(encode: EncodeSpec, audio: boolean): Promise<StreamFigures> {
  const splitter = new RelaySplitter();
  const fragments: { f: MediaFragment; at: number }[] = [];
  let linkBytes = 0;
  let counting = false;
  const link: LiveLink = {
    sendJson: () => undefined,
    sendBinary: (frame) => {
      const decoded = decodeStreamFrame(frame);
      if (!decoded) return;
      const at = performance.now();
      for (const u of splitter.push(decoded.payload)) {
        if (u.kind !== 'fragment') continue;
        if (counting) fragments.push({ f: u, at });
      }
      if (counting) linkBytes += decoded.payload.length;
    },
    bufferedAmount: () => 0,
  };
  const streams = new LiveStreams(new CameraSources([{ cameraId: 'B-C01-1', source: 'synthetic', name: 'Bench' }], { kinds: [syntheticCameras()] }));
  streams.attach(link);
  streams.handle({ type: 'live.start', streamId: 1, cameraId: 'B-C01-1', encode, audio });
  await new Promise((r) => setTimeout(r, 3000)); // start-up and the first GOPs
  counting = true;
  await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
  counting = false;
  await streams.stopAll();

  let soundBytes = 0;
  let soundTrafBytes = 0;
  let soundEnd: number | undefined;
  const behind: number[] = [];
  for (const { f } of fragments) {
    for (const t of f.tracks) {
      if (t.trackId !== 2) continue;
      soundEnd = ((t.baseMediaDecodeTime + t.duration) / 16_000) * 1000;
      soundBytes += t.bytes;
      // traf (8) + tfhd with default duration (20) + tfdt v1 (20) + trun (20 + 4 a frame)
      soundTrafBytes += 68 + 4 * t.sampleCount;
    }
    if (soundEnd !== undefined) behind.push(((f.baseMediaDecodeTime + f.duration) / 90_000) * 1000 - soundEnd);
  }
  const late = fragments.map(({ f, at }) => at - (f.baseMediaDecodeTime / 90_000) * 1000);
  const least = Math.min(...late);
  const rel = late.map((x) => x - least);
  return { linkBytes, soundBytes, soundTrafBytes, fragments: fragments.length, lateMedianMs: quantile(rel, 0.5), lateP95Ms: quantile(rel, 0.95), soundBehindMedianMs: quantile(behind, 0.5), soundBehindP95Ms: quantile(behind, 0.95) };
}

async function definitions(): Promise<void> {
  console.log(`\n2. live streams at the demo definitions, ${WINDOW_S} s each after 3 s of start-up, per minute of stream`);
  const perMin = (bytes: number) => (bytes * 60) / WINDOW_S;
  const rows: string[][] = [['definition', 'sound', 'link bytes/min', 'sound frames/min', 'sound boxes/min', 'sound share', 'picture late median / p95', 'sound behind picture median / p95']];
  for (const { name, encode } of DEFINITIONS) {
    const off = await liveStream(encode, false);
    const on = await liveStream(encode, true);
    for (const [label, f] of [['off', off], ['on', on]] as const) {
      const share = f.soundBytes + f.soundTrafBytes > 0 ? `${(((f.soundBytes + f.soundTrafBytes) / f.linkBytes) * 100).toFixed(1)} %` : '0 %';
      rows.push([name, label, kb(perMin(f.linkBytes)), kb(perMin(f.soundBytes)), kb(perMin(f.soundTrafBytes)), share, `${f.lateMedianMs.toFixed(0)} / ${f.lateP95Ms.toFixed(0)} ms`, Number.isNaN(f.soundBehindMedianMs) ? '–' : `${f.soundBehindMedianMs.toFixed(0)} / ${f.soundBehindP95Ms.toFixed(0)} ms`]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(`   ${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`);
}

// ── 3. start ────────────────────────────────────────────────────────────────────────────────────

async function firstByteMs(audio: boolean, speaker: boolean): Promise<number> {
  const t0 = performance.now();
  let first: number | undefined;
  const streams = new LiveStreams(new CameraSources([{ cameraId: 'B-C01-1', source: 'synthetic', name: 'Bench' }], { kinds: [syntheticCameras({ hearsSpeaker: speaker })] }));
  streams.attach({ sendJson: () => undefined, bufferedAmount: () => 0, sendBinary: () => (first ??= performance.now() - t0) });
  streams.handle({ type: 'live.start', streamId: 1, cameraId: 'B-C01-1', encode: DEFINITIONS[1]!.encode, audio });
  while (first === undefined && performance.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 5));
  await streams.stopAll();
  return first ?? NaN;
}

async function start(): Promise<void> {
  console.log('\n3. live.start to the first byte (Standard 640×360@10), median of 5');
  for (const [label, audio, speaker] of [['sound off', false, false], ['sound on', true, false], ['sound on + speaker feed', true, true]] as const) {
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) runs.push(await firstByteMs(audio, speaker));
    console.log(`   ${label.padEnd(24)} ${quantile(runs, 0.5).toFixed(0)} ms (${runs.map((r) => r.toFixed(0)).join(', ')})`);
  }
}

if (PARTS.has('rates')) await rates();
if (PARTS.has('definitions')) await definitions();
if (PARTS.has('start')) await start();
process.exit(0);
