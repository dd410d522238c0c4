/**
 * What the benchmarks' real RTSP camera (bench-camera.ts: ffmpeg's x264 → scripts/rtsp-camera.py,
 * GStreamer's RTSP server) adds before a ship has a picture — so that the live benchmark's
 * `--camera=rtsp` figures are the product's, not the rig's. Each picture's age (arrival − the
 * capture time drawn into it) is taken at two points: where the encoder writes it (its stdout) and
 * where an RTSP client has it whole (the agent's own RTSP reader, at the RTP marker bit). The
 * capture time is read from the pixels: each tap's pictures go through an ffmpeg decoder of their
 * own, in order, and the decoder's own delay does not count (arrival is taken at the tap).
 *
 *   node --import tsx packages/simulator/bench/camera-chain.bench.ts [--feeds=h264,flv] [--seconds=20] [--port=18620]
 *
 * Each feed (how the encoder hands pictures to the server, see bench-camera.ts) runs in turn, on
 * --port + its index. Also taken: the agent's camera session on the same camera and its FLV as a
 * live copy takes it. CHAIN_CONNECT_DELAY=ms connects the clients that long after the camera is
 * ready (a ship's session opens long after its camera started); CHAIN_NO_CLIENT=1 leaves out the
 * bare RTSP client (the session is the camera's only client); CHAIN_DUMP=1 prints every age.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { FlvReader } from '../../../apps/agent/src/media/flv.ts';
import { NAL_AUD, NAL_PPS, NAL_SPS, nalType, orderAccessUnit, splitNals, startsPicture } from '../../../apps/agent/src/media/access-unit.ts';
import { openRtspStream } from '../../../apps/agent/src/media/rtsp/stream.ts';
import { CameraSession } from '../../../apps/agent/src/media/camera-session.ts';
import { BENCH_CAMERA_ENCODE, CAMERA_FEEDS, type CameraFeed, startBenchCamera } from './bench-camera.ts';
import { avcParameterSets } from '../../../apps/agent/src/media/avc.ts';
import { AgeMeter, quantile } from './age-meter.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const FEEDS = arg('feeds', 'h264,flv').split(',') as CameraFeed[];
const SECONDS = Number(arg('seconds', '20'));
const PORT = Number(arg('port', '18620'));
const { width: W, height: H } = BENCH_CAMERA_ENCODE;

const epochNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


/** The encoder's FLV, tag by tag: each picture arrives with the chunk that completes its tag. */
function flvTap(meter: AgeMeter): (chunk: Buffer, at: number) => void {
  const reader = new FlvReader();
  let params: Buffer[] = [];
  return (chunk, at) => {
    for (const item of reader.push(chunk)) {
      if (item.kind === 'config') params = avcParameterSets(item.record);
      else if (item.kind === 'frame') meter.picture(item.keyframe ? [...params, ...splitNals(item.data)] : splitNals(item.data), at);
    }
  };
}

/**
 * The encoder's Annex B stream: a picture is known whole when the next one begins, but it
 * arrived with the chunk holding its last byte (what a reader that knew its end would see).
 */
function annexBTap(meter: AgeMeter): (chunk: Buffer, at: number) => void {
  let pending = Buffer.alloc(0);
  /** When each byte range of `pending` arrived: [end offset, epoch ms]. */
  let arrived: [number, number][] = [];
  let picture: Buffer[] = [];
  let pictureHasSlice = false;
  let pictureEndAt = 0;
  const arrivalOf = (offset: number) => arrived.find(([end]) => offset < end)?.[1] ?? 0;
  return (chunk, at) => {
    pending = Buffer.concat([pending, chunk]);
    arrived.push([pending.length, at]);
    // NAL units whose end is known (the next start code is in the buffer).
    const starts: number[] = [];
    for (let i = 0; i + 3 <= pending.length; i++) {
      if (pending[i] === 0 && pending[i + 1] === 0 && pending[i + 2] === 1) {
        starts.push(i + 3);
        i += 2;
      }
    }
    for (let k = 0; k + 1 < starts.length; k++) {
      const begin = starts[k] as number;
      let end = (starts[k + 1] as number) - 3;
      while (end > begin && pending[end - 1] === 0) end--;
      const nal = Buffer.from(pending.subarray(begin, end));
      const t = nalType(nal);
      const opensPicture = startsPicture(nal) || t === NAL_AUD || t === NAL_SPS || t === NAL_PPS;
      if (pictureHasSlice && opensPicture) {
        meter.picture(picture, pictureEndAt);
        picture = [];
        pictureHasSlice = false;
      }
      picture.push(nal);
      if (t >= 1 && t <= 5) pictureHasSlice = true;
      pictureEndAt = arrivalOf(end - 1);
    }
    const keep = starts.length ? (starts[starts.length - 1] as number) - 3 : 0;
    pending = pending.subarray(keep);
    arrived = arrived.map(([end, t]): [number, number] => [end - keep, t]).filter(([end]) => end > 0);
  };
}

interface FeedFigures {
  feed: CameraFeed;
  encoder: AgeMeter;
  client: AgeMeter;
  /** The agent's camera session (what the recorder and live streams take pictures from). */
  session: AgeMeter;
  /** The session's FLV as a live copy takes it (subscribeStream with the squeezed replay). */
  live: AgeMeter;
  /** Pictures the client got in several units (the marker bit set before their last slice). */
  splitPictures: number;
}

async function measure(feed: CameraFeed, port: number): Promise<FeedFigures> {
  const encoder = new AgeMeter();
  const client = new AgeMeter();
  const session = new AgeMeter();
  const live = new AgeMeter();
  let splitPictures = 0;
  const camera = startBenchCamera({ name: `chain ${feed}`, port, feed, onEncoderBytes: feed === 'flv' ? flvTap(encoder) : annexBTap(encoder) });
  await camera.ready;
  await sleep(Number(process.env.CHAIN_CONNECT_DELAY ?? 0));
  let keyframeSeen = false;
  let lastTimestamp: number | undefined;
  // CHAIN_NO_CLIENT=1: the agent's session is the camera's first and only client (as on a ship).
  const stream = process.env.CHAIN_NO_CLIENT ? { stop: () => undefined } : openRtspStream(camera.url, {
    onAccessUnit(au) {
      const at = epochNow();
      if (!au.slices) return;
      keyframeSeen ||= au.keyframe;
      // A picture the server marked as ended before its last slice comes as several units (one RTP timestamp).
      if (au.timestamp === lastTimestamp) splitPictures++;
      if (keyframeSeen) client.picture(orderAccessUnit(au.nals), at, au.timestamp === lastTimestamp);
      lastTimestamp = au.timestamp;
    },
    onEnd(end) {
      console.error(`  ${feed}: the RTSP client stopped: ${end.reason}`);
    },
  });
  // The agent's own camera session on the same camera, as a ship reads it (a second RTSP session).
  const cameraSession = new CameraSession(camera.url, { reader: 'rtsp', lingerMs: 0 });
  let sessionKeyframe = false;
  cameraSession.subscribe((e) => {
    if (e.kind !== 'picture') return;
    sessionKeyframe ||= e.picture.keyframe;
    if (sessionKeyframe) session.picture(splitNals(e.picture.data), e.picture.arrivedAt);
  });
  // A live copy joining a second later, as the agent's live streams take the session's pictures.
  await sleep(1000);
  const liveTap = flvTap(live);
  const unsubscribeLive = cameraSession.subscribeStream((chunk) => liveTap(chunk, epochNow()), undefined, { squeezeReplay: true });
  await sleep(SECONDS * 1000);
  unsubscribeLive();
  await cameraSession.stop();
  stream.stop();
  camera.stop();
  await sleep(500);
  encoder.stop();
  client.stop();
  session.stop();
  live.stop();
  return { feed, encoder, client, session, live, splitPictures };
}

async function main(): Promise<void> {
  for (const f of FEEDS) if (!CAMERA_FEEDS.includes(f)) throw new Error(`unknown feed ${f}: ${CAMERA_FEEDS.join(' or ')}`);
  const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`camera chain: ${W}×${H} @ ${BENCH_CAMERA_ENCODE.frameRate} fps, x264 two slices a picture; ${SECONDS} s per feed; load ${load()}`);
  const rows: FeedFigures[] = [];
  for (const [i, feed] of FEEDS.entries()) rows.push(await measure(feed, PORT + i));
  console.log('\npicture age (arrival − capture time drawn into it), ms: median / p95 over the pictures read');
  console.log("feed   at the encoder's stdout       at an RTSP client (agent's reader)    added by the RTSP server    at the agent's camera session    its FLV for a live copy");
  for (const r of rows) {
    const e = r.encoder.ages.slice(10);
    const c = r.client.ages.slice(10);
    const cell = (xs: number[]) => `${quantile(xs, 0.5).toFixed(0).padStart(5)} / ${quantile(xs, 0.95).toFixed(0).padStart(4)} (${xs.length})`;
    const se = r.session.ages.slice(10);
    console.log(`${r.feed.padEnd(5)}  ${cell(e).padEnd(28)}  ${cell(c).padEnd(36)}  ${(quantile(c, 0.5) - quantile(e, 0.5)).toFixed(0).padStart(5).padEnd(24)}  ${cell(se).padEnd(31)}  ${cell(r.live.ages.slice(10))}`);
    if (r.encoder.unreadable || r.client.unreadable || r.session.unreadable) console.log(`       (unreadable codes: encoder ${r.encoder.unreadable}, client ${r.client.unreadable}, session ${r.session.unreadable})`);
    if (r.splitPictures) console.log(`       (${r.splitPictures} pictures reached the client in several parts: the marker bit before their last slice)`);
  }
  if (process.env.CHAIN_DUMP) for (const r of rows) console.log(r.feed, r.client.ages.map((a) => Math.round(a)).join(" "));
  console.log(`load ${load()}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
