/**
 * Where an idle connected ship's shore memory goes: one shore instance (a process, with Redis), N
 * light ships; heap snapshots before and after they connect, diffed by constructor, and the RSS
 * per ship both as it stands after the ships' hellos and after a full collection (the shore runs
 * with --expose-gc and collects on SIGWINCH), with the young generation's size and the shore's CPU
 * time per ship. Run from the repository root: node --import tsx
 * tests/integration/bench/ship-memory.profile.ts [--ships=1000] [--protocol=3] [--capabilities=pictures,events];
 * SHORE_NODE_OPTIONS adds V8 flags to the shore (e.g. --max-semi-space-size=16).
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@ship-cctv/server/db';
import { LightFleet } from '@ship-cctv/simulator';
import { addLightShips } from '../test/helpers/light-fleet.ts';
import { REDIS_URL, freePort, spawnShore, throwAwayDatabase, untilHealthy } from '../test/helpers/shore-cluster.ts';

const SHIPS = Number(process.argv.find((a) => a.startsWith('--ships='))?.split('=')[1] ?? 1000);
/** The light ships' highest link version (--protocol=3: inboxes at hello, as agents before version 4). */
const PROTOCOL = process.argv.find((a) => a.startsWith('--protocol='))?.split('=')[1];
const CAPABILITIES = process.argv.find((a) => a.startsWith('--capabilities='))?.split('=')[1];
/** The light ships' hello: its highest version and kinds (--capabilities=pictures,events: both inboxes, as a real agent's). */
const maxProtocol = { ...(PROTOCOL === undefined ? {} : { maxProtocol: Number(PROTOCOL) }), ...(CAPABILITIES ? { capabilities: CAPABILITIES.split(',') } : {}) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
/** CPU time the process has used, ms (user + system; clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}
function byName(file: string): Map<string, { count: number; size: number }> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = [fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')];
  const out = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const name = type === 'object' || type === 'closure' || type === 'native' ? `${type}:${snap.strings[snap.nodes[i + nameAt]!]}` : type;
    const e = out.get(name) ?? { count: 0, size: 0 };
    e.count += 1;
    e.size += snap.nodes[i + sizeAt]!;
    out.set(name, e);
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'ship-memory-'));
// A full collection on SIGWINCH: what the RSS is once the hellos' garbage is gone.
const gcHook = join(dir, 'gc-on-signal.mjs');
writeFileSync(gcHook, "process.on('SIGWINCH', () => { globalThis.gc?.(); });\n");
const database = await throwAwayDatabase();
const port = await freePort();
const shore = spawnShore('shore-m', port, {
  DATABASE_URL: database.url,
  REDIS_URL,
  REDIS_PREFIX: `ship-memory-${process.pid}:`,
  JWT_SECRET: 'bench-jwt-secret-of-at-least-32-characters',
  LOG_LEVEL: 'error',
  SEED_DEMO: '1',
  DATA_DIR: join(dir, 'data'),
  METRICS_TOKEN: 'ship-memory-token',
  NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir} --expose-gc --import=${pathToFileURL(gcHook).href} ${process.env.SHORE_NODE_OPTIONS ?? ''}`,
});
let fleet: LightFleet | undefined;
let fleet2: LightFleet | undefined;
try {
  await untilHealthy(shore, 180_000);
  const db = await openDatabase({ url: database.url });
  const ships = await addLightShips(db, SHIPS);
  await db.close();
  const snapshot = async () => {
    const before = new Set(readdirSync(dir));
    shore.child.kill('SIGUSR2');
    for (;;) {
      await sleep(500);
      const fresh = readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot') && !before.has(f));
      // Written once it parses whole (the process writes it as it walks the heap).
      if (fresh[0]) {
        const file = join(dir, fresh[0]);
        for (;;) {
          await sleep(2000);
          try {
            return { file, parsed: byName(file) };
          } catch {
            // not finished yet
          }
        }
      }
    }
  };
  const memory = async () => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer ship-memory-token' } })).text();
    return new Map(text.split('\n').filter((l) => /^(process_memory_bytes|nodejs_heap_space_size_(total|used)_bytes)\{/.test(l)).map((l) => [l.split(' ')[0]!, Number(l.split(' ')[1])] as const));
  };
  const pid = shore.child.pid!;
  const collected = async () => {
    shore.child.kill('SIGWINCH');
    await sleep(2_000);
    shore.child.kill('SIGWINCH');
    await sleep(3_000);
    return rss(pid);
  };
  const youngMb = (m: Map<string, number>) => ((m.get('nodejs_heap_space_size_total_bytes{space="new"}') ?? 0) / 1048576).toFixed(1);
  await sleep(3_000);
  const rss0Gc = await collected();
  const mem0 = await memory();
  const mem0Gc = mem0;
  const rss0 = rss(pid);
  const cpu0 = cpuMs(pid);
  const snap0 = await snapshot();
  // Two halves: the second half's growth is what a ship adds once the process has grown its pools and young generation.
  const half = Math.floor(SHIPS / 2);
  fleet = new LightFleet({ ships: ships.slice(0, half), shoreUrl: `ws://127.0.0.1:${port}`, cameraIds: [], ...maxProtocol });
  fleet.start();
  while (fleet.online < half) await sleep(200);
  await sleep(15_000);
  const rssHalf = rss(pid);
  const memHalf = await memory();
  fleet2 = new LightFleet({ ships: ships.slice(half), shoreUrl: `ws://127.0.0.1:${port}`, cameraIds: [], ...maxProtocol });
  fleet2.start();
  while (fleet2.online < SHIPS - half) await sleep(200);
  await sleep(15_000);
  const rss1 = rss(pid);
  const cpu1 = cpuMs(pid);
  const mem1 = await memory();
  const rss1Gc = await collected();
  const mem1Gc = await memory();
  for (const [k, v] of mem1) {
    if (!/rss|heap_used|heap_total|external|space="(new|old)"/.test(k)) continue;
    console.log(`${k}: all ${((v - (mem0.get(k) ?? 0)) / SHIPS / 1024).toFixed(1)} kB/ship, second half ${((v - (memHalf.get(k) ?? 0)) / (SHIPS - half) / 1024).toFixed(1)} kB/ship (${(v / 1048576).toFixed(1)} MB)`);
  }
  console.log(`RSS per ship, second half: ${((rss1 - rssHalf) / (SHIPS - half) / 1024).toFixed(1)} kB`);
  console.log(`RSS: ${(rss0 / 1048576).toFixed(0)} MB before the ships (young generation ${youngMb(mem0)} MB), ${(rss1 / 1048576).toFixed(0)} MB with them (young generation ${youngMb(mem1)} MB)`);
  const heapUsed = (m: Map<string, number>) => m.get('process_memory_bytes{kind="heap_used"}') ?? 0;
  console.log(
    `after a full collection: RSS ${((rss1Gc - rss0Gc) / SHIPS / 1024).toFixed(1)} kB per ship (${(rss0Gc / 1048576).toFixed(0)} MB before, ${(rss1Gc / 1048576).toFixed(0)} MB with the ships; ` +
      `V8 keeps the pages it freed), heap used ${((heapUsed(mem1Gc) - heapUsed(mem0Gc)) / SHIPS / 1024).toFixed(1)} kB per ship, young generation ${youngMb(mem1Gc)} MB`,
  );
  console.log(`shore CPU while the ships connected and idled: ${((cpu1 - cpu0) / SHIPS).toFixed(2)} ms per ship (${((cpu1 - cpu0) / 1000).toFixed(1)} s)`);
  const snap1 = await snapshot();
  console.log(`RSS per ship: ${((rss1 - rss0) / SHIPS / 1024).toFixed(1)} kB (${SHIPS} ships)`);
  const a = snap0.parsed;
  const b = snap1.parsed;
  const diff = [...b].map(([k, v]) => [k, v.size - (a.get(k)?.size ?? 0), v.count - (a.get(k)?.count ?? 0)] as const).sort((x, y) => y[1] - x[1]);
  const total = diff.reduce((s, [, d]) => s + d, 0);
  console.log(`heap per ship: ${(total / SHIPS / 1024).toFixed(1)} kB`);
  for (const [k, d, n] of diff.slice(0, 45)) console.log(`${(d / SHIPS).toFixed(0).padStart(7)} B/ship ${(n / SHIPS).toFixed(2).padStart(7)} /ship  ${k}`);
} finally {
  await fleet?.stop();
  await fleet2?.stop();
  shore.child.kill('SIGTERM');
  await shore.exited;
  await database.drop().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}
