/**
 * Three shore instances on this machine. Each instance is a process (`apps/server/src/server.ts`)
 * on one throw-away PostgreSQL database and the machine's Redis; ship S1001's real agent (synthetic
 * camera, no link shaping, the agent's own reconnect backoff) dials them through a TCP balancer that
 * counts the bytes it sends towards shore — the ship's uplink.
 *
 * 1. Uplink: one viewer for a window, then 60 viewers of the same camera spread 20/20/20 over the
 *    instances for a window, then one viewer again; the 60-viewer window's uplink bytes against the
 *    mean of the two one-viewer windows (goal ≤ 1.02×).
 * 2. Added latency on a non-owner: during the 60-viewer window every fragment is matched by its
 *    sequence number; its earliest arrival at a viewer on the owner is the reference, and each
 *    viewer on a non-owner adds its arrival minus that. Capture, encoding and the viewer's decoding
 *    are the same for both, so this is what a non-owner adds to glass-to-glass latency (goal ≤ 20 ms
 *    median). All 60 sockets are read by this one process, so its own scheduling is in the figures.
 * 3. Failover: the owner is SIGKILLed; the time until each viewer on a surviving instance has a
 *    fragment of the restarted stream (after its new init). Done twice (3 → 2 → 1 instances).
 *
 * Not part of npm test. Run from the repository root (PostgreSQL, Redis as the tests use them):
 *
 *   node --import tsx tests/integration/bench/cluster.bench.ts [--seconds=15]
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Fmp4Splitter } from '@ship-cctv/media';
import type { LinkReport } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { Balancer, type ShoreProcess, signInOver, startShoreCluster } from '../test/helpers/shore-cluster.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const seconds = Number(process.argv.find((a) => a.startsWith('--seconds='))?.slice(10) ?? 15);
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const VIEWERS = 60;
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };

/** What one media socket received, with arrival times (ms, this process's clock). */
class Viewer {
  readonly fragments = new Map<number, number>();
  readonly units: { at: number; kind: 'init' | 'fragment' }[] = [];
  private constructor(
    readonly client: MediaClient,
    readonly shore: ShoreProcess,
  ) {
    const splitter = new Fmp4Splitter();
    client.ws.on('message', (data, isBinary) => {
      if (!isBinary) return;
      const at = performance.now();
      for (const unit of splitter.push(data as Buffer)) {
        if (unit.kind === 'init') this.units.push({ at, kind: 'init' });
        else if (unit.kind === 'fragment') {
          this.units.push({ at, kind: 'fragment' });
          if (!this.fragments.has(unit.sequenceNumber)) this.fragments.set(unit.sequenceNumber, at);
        }
      }
    });
  }

  static async open(shore: ShoreProcess, token: string): Promise<Viewer> {
    const viewer = new Viewer(await MediaClient.open(shore.port, token), shore);
    viewer.client.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    return viewer;
  }

  /** When the first fragment after an init that came after `since` arrived (the stream restarted and plays). */
  resumedAt(since: number): number | undefined {
    const init = this.units.findIndex((u) => u.kind === 'init' && u.at > since);
    return init < 0 ? undefined : this.units.slice(init).find((u) => u.kind === 'fragment')?.at;
  }
}

const pct = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
async function until(what: string, pred: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

const cluster = await startShoreCluster({ count: 3, redisPrefix: `shipcctv-bench-${randomBytes(4).toString('hex')}:` });
const balancer = await new Balancer(cluster.instances.map((i) => i.port)).listen();
const agent = new ShipAgent(
  { shoreUrl: `ws://127.0.0.1:${balancer.port}`, shipId: SHIP, key: cluster.keyOf(SHIP), cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
  { current: () => report, onChange: () => () => undefined },
  { cameraKinds: [syntheticCameras()] },
);
const viewers: Viewer[] = [];
try {
  agent.start();
  await new Promise<void>((resolve) => (agent.connected ? resolve() : agent.once('connected', () => resolve())));
  const token = await signInOver(cluster.instances[0]!.port);
  const ownerOf = () => cluster.instances.find((i) => i.port === balancer.current)!;
  const owner = ownerOf();
  console.log(`three instances (${cluster.instances.map((i) => `${i.name} :${i.port}`).join(', ')}), ${SHIP}'s agent on ${owner.name}`);

  // 1. Uplink bytes: 1 viewer, 60 viewers, 1 viewer, a window each.
  const first = await Viewer.open(owner, token);
  viewers.push(first);
  await until('first frames', () => first.fragments.size > 20, 30_000);
  // The uplink bytes of a window, and the video bytes the first viewer (on the owner) got in it:
  // the encoder's output varies from window to window, and uplink per video byte does not.
  const window = async () => {
    const [up, video] = [balancer.bytesUp, first.client.bytes];
    await sleep(seconds * 1000);
    return { up: balancer.bytesUp - up, video: first.client.bytes - video };
  };
  const alone1 = await window();
  for (const shore of cluster.instances) {
    const here = viewers.filter((v) => v.shore === shore).length;
    for (let n = here; n < VIEWERS / cluster.instances.length; n++) viewers.push(await Viewer.open(shore, token));
  }
  await until('frames at all 60 viewers', () => viewers.every((v) => v.fragments.size > 5), 30_000);
  const measuredFrom = performance.now();
  const many = await window();
  const measuredTo = performance.now();
  const uplinks = agent.streams.activeStreamIds.length;
  // Latency from the 60-viewer window, before the viewers leave.
  const onOwner = viewers.filter((v) => v.shore === owner);
  const reference = new Map<number, number>();
  for (const v of onOwner) {
    for (const [seq, at] of v.fragments) if (at >= measuredFrom && at <= measuredTo) reference.set(seq, Math.min(reference.get(seq) ?? Infinity, at));
  }
  const added = viewers
    .filter((v) => v.shore !== owner)
    .flatMap((v) => [...v.fragments].flatMap(([seq, at]) => (reference.has(seq) ? [at - reference.get(seq)!] : [])))
    .sort((x, y) => x - y);
  const spreadOnOwner = onOwner
    .flatMap((v) => [...v.fragments].flatMap(([seq, at]) => (reference.has(seq) ? [at - reference.get(seq)!] : [])))
    .sort((x, y) => x - y);
  await Promise.all(viewers.splice(1).map((v) => v.client.close()));
  await sleep(2_000);
  const alone2 = await window();
  const aloneMean = (alone1.up + alone2.up) / 2;
  const perVideoByte = (w: { up: number; video: number }) => w.up / w.video;
  console.log(
    `uplink over ${seconds} s: 1 viewer ${kB(alone1.up)} and ${kB(alone2.up)}; ${VIEWERS} viewers (20/20/20) ${kB(many.up)} with ${uplinks} stream(s) at the agent → ${(many.up / aloneMean).toFixed(3)}× one viewer (goal ≤ 1.02×); ` +
      `the two one-viewer windows differ by ${((Math.abs(alone1.up - alone2.up) / aloneMean) * 100).toFixed(1)} % (the encoder's output varies); ` +
      `uplink bytes per video byte a viewer gets: ${perVideoByte(alone1).toFixed(4)}, ${perVideoByte(many).toFixed(4)}, ${perVideoByte(alone2).toFixed(4)} → ${(perVideoByte(many) / ((perVideoByte(alone1) + perVideoByte(alone2)) / 2)).toFixed(3)}×`,
  );
  console.log(
    `added latency on a non-owner (${added.length} fragment arrivals at 40 viewers): median ${pct(added, 0.5).toFixed(2)} ms, p95 ${pct(added, 0.95).toFixed(2)} ms, max ${(added.at(-1) ?? NaN).toFixed(2)} ms (goal ≤ 20 ms median); ` +
      `spread among the owner's own 20 viewers: median ${pct(spreadOnOwner, 0.5).toFixed(2)} ms, p95 ${pct(spreadOnOwner, 0.95).toFixed(2)} ms`,
  );

  // 3. Failover, twice: viewers on every living instance, the owner killed.
  await viewers[0]!.client.close();
  viewers.length = 0;
  for (let round = 1; round <= 2; round++) {
    const living = cluster.instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null);
    for (const shore of living) for (let n = 0; n < 5; n++) viewers.push(await Viewer.open(shore, token));
    await until('frames at every viewer', () => viewers.every((v) => v.fragments.size > 10), 30_000);
    const victim = ownerOf();
    const linksBefore = balancer.connections.length;
    const killedAt = performance.now();
    victim.child.kill('SIGKILL');
    await until('the agent on a survivor', () => balancer.connections.length > linksBefore && agent.connected, 60_000);
    const reconnectedAt = performance.now();
    const survivors = viewers.filter((v) => v.shore !== victim);
    await until('frames again at every survivor viewer', () => survivors.every((v) => v.resumedAt(killedAt) !== undefined), 60_000);
    const resumed = survivors.map((v) => v.resumedAt(killedAt)! - killedAt).sort((x, y) => x - y);
    const newOwner = ownerOf();
    const through = (v: Viewer) => (v.shore === newOwner ? 'new owner' : 'relayed');
    const byKind = (kind: string) =>
      survivors
        .filter((v) => through(v) === kind)
        .map((v) => v.resumedAt(killedAt)! - killedAt)
        .sort((x, y) => x - y);
    const relayed = byKind('relayed');
    console.log(
      `failover ${round} (${living.length} → ${living.length - 1} instances): ${victim.name} SIGKILLed; agent on ${newOwner.name} after ${(reconnectedAt - killedAt).toFixed(0)} ms; ` +
        `video again at ${survivors.length} viewers after median ${pct(resumed, 0.5).toFixed(0)} ms, max ${(resumed.at(-1) ?? NaN).toFixed(0)} ms ` +
        `(on the new owner ${pct(byKind('new owner'), 0.5).toFixed(0)} ms${relayed.length ? `, relayed ${pct(relayed, 0.5).toFixed(0)} ms` : ''}); ${agent.streams.activeStreamIds.length} stream(s) at the agent`,
    );
    await Promise.all(viewers.map((v) => v.client.close()));
    viewers.length = 0;
  }
} finally {
  await Promise.all(viewers.map((v) => v.client.close()));
  await agent.stop();
  await balancer.close();
  await cluster.close();
}
