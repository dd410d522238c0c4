/**
 * Measures the link emulator against its own profiles: round trip and throughput each way through a
 * LinkShaper on loopback, next to the nominal figures (loss-free shapers: this part measures the
 * delay and rate alone). Then, for the profiles with packet loss, one bulk TCP upload of
 * --loss-seconds (default 20) with the profile's loss: goodput against the link rate and against
 * the Mathis estimate of a Reno flow (MSS/RTT × 1.22/√p), and what the shaper counted. Run from the
 * repository root:
 *   node --import tsx packages/simulator/bench/link-shaper.bench.ts [--loss-seconds=20] [--loss-only]
 */
import net from 'node:net';
import os from 'node:os';
import {
  LOSS_SEGMENT_BYTES,
  LinkShaper,
  PROFILES,
  PROFILE_NAMES,
  lossRate,
  roundTripMs,
  seededRandom,
  type LinkProfile,
} from '../src/link/index.ts';

const argOf = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const LOSS_SECONDS = Number(argOf('loss-seconds') ?? 20);
const LOSS_ONLY = process.argv.includes('--loss-only');

const PINGS = 5;
const TRANSFER_SECONDS = 1.5;

async function listen(onSocket: (s: net.Socket) => void): Promise<net.Server> {
  const server = net.createServer(onSocket);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function portOf(server: net.Server): number {
  const a = server.address();
  if (!a || typeof a === 'string') throw new Error('no address');
  return a.port;
}

async function connect(port: number): Promise<net.Socket> {
  const s = net.connect({ host: '127.0.0.1', port });
  s.setNoDelay(true);
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  return s;
}

async function withShaper<T>(profile: LinkProfile, server: net.Server, fn: (port: number) => Promise<T>): Promise<T> {
  const shaper = new LinkShaper({ profile, target: { port: portOf(server) }, loss: false });
  await shaper.listen();
  try {
    return await fn(shaper.port);
  } finally {
    await shaper.close();
  }
}

/** Receives `n` bytes; returns the time of the first and last arrival and the first chunk's size. */
function receive(socket: net.Socket, n: number): Promise<{ first: number; last: number; firstBytes: number }> {
  return new Promise((resolve) => {
    let got = 0;
    let first = 0;
    let firstBytes = 0;
    const onData = (c: Buffer): void => {
      if (got === 0) {
        first = performance.now();
        firstBytes = c.length;
      }
      got += c.length;
      if (got >= n) {
        socket.off('data', onData);
        resolve({ first, last: performance.now(), firstBytes });
      }
    };
    socket.on('data', onData);
  });
}

/** Throughput from first to last arrival: the rate, without the one-way delay in front of it. */
function kbpsOf(r: { first: number; last: number; firstBytes: number }, n: number): number {
  return ((n - r.firstBytes) * 8) / Math.max(1e-3, r.last - r.first);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function measure(profile: LinkProfile): Promise<{ rtt: number; up: number; down: number }> {
  const echo = await listen((s) => s.pipe(s));
  const rtt = await withShaper(profile, echo, async (port) => {
    const c = await connect(port);
    const times: number[] = [];
    for (let i = 0; i < PINGS; i++) {
      const t0 = performance.now();
      const back = receive(c, 1);
      c.write('p');
      await back;
      times.push(performance.now() - t0);
    }
    c.destroy();
    return median(times);
  });
  echo.close();

  const upBytes = Math.max(32 * 1024, Math.round((profile.upKbps * 1000 * TRANSFER_SECONDS) / 8));
  let upResult: Promise<{ first: number; last: number; firstBytes: number }> | undefined;
  const sink = await listen((s) => (upResult = receive(s, upBytes)));
  await withShaper(profile, sink, async (port) => {
    const c = await connect(port);
    c.write(Buffer.alloc(upBytes, 0x55));
    while (!upResult) await new Promise((r) => setTimeout(r, 5));
    await upResult;
    c.destroy();
  });
  sink.close();
  const up = kbpsOf(await upResult!, upBytes);

  const downBytes = Math.max(32 * 1024, Math.round((profile.downKbps * 1000 * TRANSFER_SECONDS) / 8));
  const source = await listen((s) => {
    s.on('error', () => {});
    s.write(Buffer.alloc(downBytes, 0xaa));
  });
  const down = await withShaper(profile, source, async (port) => {
    const c = await connect(port);
    const r = await receive(c, downBytes);
    c.destroy();
    return kbpsOf(r, downBytes);
  });
  source.close();
  return { rtt, up, down };
}

/** A sender that never runs dry, up through a lossy shaper for `seconds`: goodput and the shaper's counts. */
async function bulkWithLoss(profile: LinkProfile, seconds: number, seed: number) {
  let got = 0;
  const sink = await listen((s) => s.on('data', (c: Buffer) => (got += c.length)));
  const shaper = new LinkShaper({ profile, target: { port: portOf(sink) }, random: seededRandom(seed) });
  await shaper.listen();
  const c = await connect(shaper.port);
  c.on('error', () => {});
  let sent = 0;
  const block = Buffer.alloc(16 * 1024, 0x5a);
  const feed = (): void => {
    while (sent - got < 512 * 1024 && c.write(block)) sent += block.length;
  };
  c.on('drain', () => {
    sent += block.length;
    feed();
  });
  const feeder = setInterval(feed, 20);
  feed();
  // Count from the first byte delivered: the one-way delay is not the rate.
  while (got === 0) await new Promise((r) => setTimeout(r, 5));
  const from = got;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const goodputKbps = ((got - from) * 8) / (performance.now() - t0);
  clearInterval(feeder);
  const stats = shaper.stats('up');
  c.destroy();
  await shaper.close();
  sink.close();
  return { goodputKbps, stats };
}

const pct = (measured: number, nominal: number): string => `${((measured / nominal) * 100).toFixed(0)}%`.padStart(5);
const started = performance.now();
console.log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
if (!LOSS_ONLY) {
console.log(`LinkShaper over loopback: median of ${PINGS} pings; ~${TRANSFER_SECONDS} s of data each way`);
console.log(
  'profile   RTT nominal  measured | up kbit/s nominal  measured        | down kbit/s nominal  measured',
);
for (const name of PROFILE_NAMES) {
  if (name === 'OFFLINE') continue;
  const p = PROFILES[name];
  const m = await measure(p);
  console.log(
    [
      name.padEnd(8),
      `${roundTripMs(p)} ms`.padStart(12),
      `${m.rtt.toFixed(0)} ms`.padStart(9),
      ' |',
      String(p.upKbps).padStart(17),
      m.up.toFixed(0).padStart(9),
      pct(m.up, p.upKbps),
      '  |',
      String(p.downKbps).padStart(19),
      m.down.toFixed(0).padStart(9),
      pct(m.down, p.downKbps),
    ].join(' '),
  );
}
}

console.log(`\npacket loss: one bulk upload per lossy profile, ${LOSS_SECONDS} s counted from the first byte (seeded losses)`);
console.log('profile  loss  up kbit/s  goodput        Mathis (Reno)  lost  stalled   cuts  limited now');
for (const [i, name] of PROFILE_NAMES.entries()) {
  const p = PROFILES[name];
  const rate = lossRate(p, 'up');
  if (rate === 0) continue;
  const { goodputKbps, stats } = await bulkWithLoss(p, LOSS_SECONDS, 100 + i);
  const mathis = ((LOSS_SEGMENT_BYTES * 8) / roundTripMs(p)) * (1.22 / Math.sqrt(rate));
  console.log(
    [
      name.padEnd(8),
      `${(rate * 100).toFixed(1)}%`.padStart(5),
      String(p.upKbps).padStart(10),
      goodputKbps.toFixed(0).padStart(8),
      pct(goodputKbps, p.upKbps),
      `${Math.min(mathis, p.upKbps).toFixed(0)}`.padStart(13),
      String(stats.lostSegments).padStart(5),
      `${(stats.stalledMs / 1000).toFixed(1)} s`.padStart(8),
      String(stats.windowCuts).padStart(6),
      String(stats.limitedSenders).padStart(12),
    ].join(' '),
  );
}
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
