/**
 * Measures the link emulator against its own profiles: round trip and throughput each way through a
 * LinkShaper on loopback, next to the nominal figures. Run from the repository root:
 *   node --import tsx apps/agent/bench/link-shaper.bench.ts
 */
import net from 'node:net';
import { LinkShaper, PROFILES, PROFILE_NAMES, roundTripMs, type LinkProfile } from '../src/link/index.ts';

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
  const shaper = new LinkShaper({ profile, target: { port: portOf(server) } });
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

const pct = (measured: number, nominal: number): string => `${((measured / nominal) * 100).toFixed(0)}%`.padStart(5);
const started = performance.now();
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
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
