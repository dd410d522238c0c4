/**
 * Live video through a non-owner instance: what relaying over Redis adds. Two shore instances on
 * one embedded database and the machine's Redis, ship S1001's agent on instance A (synthetic camera,
 * no link shaping), one viewer on A and one on B at the same definition. Each fragment is matched by
 * its sequence number on both media sockets; the difference of arrival times is the latency a
 * viewer on a non-owner instance has on top of one on the owner. Prints median, p90 and max; not
 * part of npm test. Run from the repository root (Redis at 127.0.0.1:6379, or TEST_REDIS_URL):
 *
 *   node --import tsx tests/integration/bench/live-instances.bench.ts [--seconds=15]
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Fmp4Splitter } from '@ship-cctv/media';
import { openDatabase } from '@ship-cctv/server/db';
import type { LinkReport } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { signIn, startShore } from '../test/helpers/shore.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const seconds = Number(process.argv.find((a) => a.startsWith('--seconds='))?.slice(10) ?? 15);
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };

/** Arrival time (ms) of each fragment on a media socket, by its sequence number. */
function arrivals(client: MediaClient): Map<number, number> {
  const seen = new Map<number, number>();
  const splitter = new Fmp4Splitter();
  client.ws.on('message', (data, isBinary) => {
    if (!isBinary) return;
    const now = performance.now();
    for (const unit of splitter.push(data as Buffer)) if (unit.kind === 'fragment' && !seen.has(unit.sequenceNumber)) seen.set(unit.sequenceNumber, now);
  });
  return seen;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

const database = await openDatabase({});
const opts = { database, redisUrl: REDIS_URL, redisPrefix: `shipcctv-bench-${randomBytes(4).toString('hex')}:`, logger: false };
const a = await startShore(opts);
const b = await startShore(opts);
const agent = new ShipAgent(
  { shoreUrl: a.url, shipId: SHIP, key: await a.app.agentKeys.issue(SHIP), cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
  { current: () => report, onChange: () => () => undefined },
  { cameraKinds: [syntheticCameras()] },
);
agent.start();
await new Promise<void>((resolve) => (agent.connected ? resolve() : agent.once('connected', () => resolve())));
while (!(await b.app.ownership.ownerOf(SHIP))) await new Promise((r) => setTimeout(r, 100));
const token = await signIn(a.app);
const onA = await MediaClient.open(a.port, token);
const onB = await MediaClient.open(b.port, token);
const atA = arrivals(onA);
const atB = arrivals(onB);
onA.send({ type: 'play', mode: 'live', cameraId: CAMERA });
onB.send({ type: 'play', mode: 'live', cameraId: CAMERA });
await new Promise((r) => setTimeout(r, seconds * 1000));
const added = [...atB].flatMap(([seq, t]) => (atA.has(seq) ? [t - (atA.get(seq) ?? t)] : [])).sort((x, y) => x - y);
console.log(`live via a non-owner instance (Redis relay), ${added.length} fragments matched over ${seconds} s, ${agent.streams.activeStreamIds.length} uplink stream(s) at the agent`);
console.log(`added latency ms: median ${pct(added, 0.5).toFixed(2)}, p90 ${pct(added, 0.9).toFixed(2)}, max ${(added.at(-1) ?? NaN).toFixed(2)}`);
await onA.close();
await onB.close();
await agent.stop();
await a.close();
await b.close();
await database.close();
