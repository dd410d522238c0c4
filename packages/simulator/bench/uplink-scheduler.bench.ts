/**
 * Live video beside a large picture on one FleetBroadband uplink: a WebSocket agent link through
 * the project's link shaper (FBB, 400 kbit/s up, 350 ms one way), live frames at 10 fps of a
 * 150 kbit/s stream, and 6 s in, a 300 KB picture sent in 8 KiB link frames (BACKGROUND_FRAME_BYTES). Prints live frames
 * per second at shore before and during the picture, the worst gap between live frames, live
 * frames' median and worst one-way delay during the picture, and when the picture finished — in
 * three modes: one FIFO (as in wave 1), the uplink scheduler on the socket's buffer alone (link
 * protocol 2), and the scheduler with shore's acknowledgements and its send window (protocol 3; the
 * shore end here acknowledges as the server does, every LINK_ACK_INTERVAL_MS). Run from the
 * repository root:
 *   node --import tsx packages/simulator/bench/uplink-scheduler.bench.ts
 */
import { LINK_ACK_INTERVAL_MS, wsFrameOverhead } from '@ship-cctv/protocol';
import { WebSocket, WebSocketServer } from 'ws';
import { LinkShaper, PROFILES } from '../src/link/index.ts';
import { BACKGROUND_FRAME_BYTES, UplinkScheduler } from '../../../apps/agent/src/uplink/scheduler.ts';

const RUN_MS = 30_000;
const PICTURE_AT_MS = 6_000;
const PICTURE_BYTES = 300 * 1024;
const CHUNK = BACKGROUND_FRAME_BYTES;
const FPS = 10;
const FRAME_BYTES = Math.round((150_000 / 8) / FPS);

interface Result {
  fpsBefore: number;
  fpsDuring: number;
  worstGapMs: number;
  delayMedianMs: number;
  delayWorstMs: number;
  pictureDoneMs: number | undefined;
}

type Mode = 'fifo' | 'scheduler' | 'window';

async function run(mode: Mode): Promise<Result> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const shorePort = (wss.address() as { port: number }).port;
  const shaper = new LinkShaper({ profile: { ...PROFILES.FBB, jitterMs: 0 }, target: { port: shorePort } });
  await shaper.listen();
  const t0 = performance.now();
  const liveArrivals: number[] = [];
  const liveDelays: { at: number; delay: number }[] = [];
  let pictureBytes = 0;
  let pictureDoneMs: number | undefined;
  wss.on('connection', (socket) => {
    let received = 0;
    let ackTimer: NodeJS.Timeout | undefined;
    socket.on('message', (data: Buffer) => {
      received += data.length + wsFrameOverhead(data.length, true);
      if (mode === 'window' && !ackTimer) {
        ackTimer = setTimeout(() => {
          ackTimer = undefined;
          socket.send(JSON.stringify({ type: 'link.ack', bytes: received }));
        }, LINK_ACK_INTERVAL_MS);
      }
      const now = performance.now() - t0;
      if (data[0] === 1) {
        liveArrivals.push(now);
        liveDelays.push({ at: now, delay: now - data.readDoubleLE(1) });
      } else {
        pictureBytes += data.length - 1;
        if (pictureBytes >= PICTURE_BYTES && pictureDoneMs === undefined) pictureDoneMs = now;
      }
    });
  });
  const ws = new WebSocket(`ws://127.0.0.1:${shaper.port}`);
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  const up = new UplinkScheduler({ write: (d) => ws.send(d, { binary: true }), buffered: () => ws.bufferedAmount });
  if (mode === 'window') {
    up.useWindow();
    ws.on('message', (data: Buffer) => up.acknowledged((JSON.parse(data.toString()) as { bytes: number }).bytes));
  }
  const send = (cls: 'live' | 'pictures', payload: Buffer) => (mode === 'fifo' ? ws.send(payload, { binary: true }) : up.send(cls, payload));

  const frame = (kind: number, bytes: number) => {
    const b = Buffer.concat([Buffer.from([kind]), Buffer.alloc(bytes, 7)]);
    b.writeDoubleLE(performance.now() - t0, 1);
    return b;
  };
  const liveTimer = setInterval(() => send('live', frame(1, FRAME_BYTES)), 1000 / FPS);
  const pictureTimer = setTimeout(() => {
    for (let at = 0; at < PICTURE_BYTES; at += CHUNK) send('pictures', frame(2, Math.min(CHUNK, PICTURE_BYTES - at)));
  }, PICTURE_AT_MS);
  await new Promise((r) => setTimeout(r, RUN_MS));
  clearInterval(liveTimer);
  clearTimeout(pictureTimer);
  up.close();
  ws.terminate();
  await shaper.close();
  await new Promise<void>((resolve) => wss.close(() => resolve()));

  const rate = (from: number, to: number) => (liveArrivals.filter((t) => t >= from && t < to).length * 1000) / (to - from);
  const oneWay = PROFILES.FBB.oneWayDelayMs;
  const end = pictureDoneMs ?? RUN_MS;
  let worstGapMs = 0;
  for (let i = 1; i < liveArrivals.length; i++) {
    const a = liveArrivals[i - 1] ?? 0;
    const b = liveArrivals[i] ?? 0;
    if (a >= PICTURE_AT_MS && b <= end + 1_000) worstGapMs = Math.max(worstGapMs, b - a);
  }
  // Frames sent while the picture was on its way, whenever they arrived.
  const during = liveDelays
    .filter((d) => d.at - d.delay >= PICTURE_AT_MS && d.at - d.delay < end)
    .map((d) => d.delay)
    .sort((a, b) => a - b);
  const delayMedianMs = during[Math.floor(during.length / 2)] ?? NaN;
  const delayWorstMs = during[during.length - 1] ?? NaN;
  return { fpsBefore: rate(1_000 + oneWay, PICTURE_AT_MS), fpsDuring: rate(PICTURE_AT_MS + oneWay, end), worstGapMs, delayMedianMs, delayWorstMs, pictureDoneMs: pictureDoneMs === undefined ? undefined : pictureDoneMs - PICTURE_AT_MS };
}

const fmt = (r: Result) =>
  `live ${r.fpsBefore.toFixed(1)} fps before, ${r.fpsDuring.toFixed(1)} fps during the picture, worst gap ${Math.round(r.worstGapMs)} ms, delay median ${Math.round(r.delayMedianMs)} ms worst ${Math.round(r.delayWorstMs)} ms; picture done ${r.pictureDoneMs === undefined ? 'NOT within the run' : `${(r.pictureDoneMs / 1000).toFixed(1)} s`} after it was sent`;

console.log(`FBB uplink, live ${FPS} fps × ${FRAME_BYTES} B, picture ${PICTURE_BYTES / 1024} KiB at ${PICTURE_AT_MS / 1000} s`);
console.log(`  one FIFO (wave 1):                      ${fmt(await run('fifo'))}`);
console.log(`  scheduler on the socket buffer (v2):    ${fmt(await run('scheduler'))}`);
console.log(`  scheduler + shore acks, send window (v3): ${fmt(await run('window'))}`);
