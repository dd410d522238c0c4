/**
 * Backfill after a long outage, as a ship at sea has one: a real shore recording what an operator
 * watches live from a real ship agent (a URL camera recorded by the ship into 60 s segment files,
 * as in service) behind the link emulator; the link goes down for OUTAGE minutes (default 10) and
 * comes back with the operator still watching. Prints, per link: the gap in the shore recording,
 * how long after the link's return the shore's index covered it (the live stream coming back, the
 * ship closing the file under way, the copying beside live video), and the bytes that crossed under
 * `backfill` against the ship's own bytes of the files copied. VSAT and FBB run side by side, each
 * with its own shore and ship. Not part of npm test; from the repository root:
 *
 *   node scripts/node-runtime.mjs --import tsx tests/integration/bench/backfill-outage.bench.ts [--links=VSAT,FBB] [--outage=10] [--definition=lowest]
 *
 * `--definition` sets the ships' organisations' backfill definition (recorded — the default —,
 * lowest, satellite or ship); the line then says what the ship was asked for and how many files it
 * transcoded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LinkReport, RecordQueryPage } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { LinkShaper, PROFILES } from '@ship-cctv/simulator';
import { tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { makeCameraFile } from '../../../apps/agent/test/recorder/helpers.ts';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { signIn, startShore } from '../test/helpers/shore.ts';

type LinkName = 'VSAT' | 'FBB';
const SHIP_OF: Record<LinkName, { ship: string; camera: string }> = { VSAT: { ship: 'S1001', camera: 'S1001-C01-1' }, FBB: { ship: 'S3001', camera: 'S3001-C01-1' } };
const argv = process.argv.slice(2);
const argOf = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const LINKS = (argOf('links') ?? 'VSAT,FBB').split(',').map((l) => l.trim().toUpperCase()) as LinkName[];
const OUTAGE_MS = Number(argOf('outage') ?? 10) * 60_000;
const DEFINITION = argOf('definition');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tmp = tempDir('backfill-bench-');

async function until<T>(what: string, timeoutMs: number, fn: () => Promise<T | undefined> | T | undefined, progress?: () => Promise<string>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let said = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs / 1000} s`);
    if (progress && Date.now() - said > 30_000) {
      said = Date.now();
      console.log(`  waiting for ${what}: ${await progress()}`);
    }
    await sleep(500);
  }
}

async function run(link: LinkName, cameraFile: string): Promise<string> {
  const { ship, camera } = SHIP_OF[link];
  const report: LinkReport = { linkType: link, quality: 80, duplex: 'BOTH' };
  const shore = await startShore({
    liveness: { pingMs: 2_000, timeoutMs: 12_000 },
    recorder: { settings: { dir: join(tmp.dir, link, 'shore'), segmentSeconds: 10 } },
    backfill: { settings: { everyMs: 5_000, afterOnlineMs: 5_000 } },
  });
  const shaper = new LinkShaper({ target: { port: shore.port }, profile: PROFILES[link] });
  await shaper.listen();
  const agent = new ShipAgent(
    { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: ship, key: await shore.app.agentKeys.issue(ship), cameras: [{ cameraId: camera, source: cameraFile }] },
    { current: () => report, onChange: () => () => undefined },
    { minBackoffMs: 1_000, maxBackoffMs: 5_000, recorder: { dataDir: join(tmp.dir, link, 'ship') } },
  );
  agent.start();
  const token = await signIn(shore.app);
  if (DEFINITION) {
    const orgId = (await shore.app.recordings.cameraInfo(camera))!.orgId;
    const set = await shore.app.inject({ method: 'PUT', url: `/api/v1/cctv/record/backfill/org/${orgId}`, headers: { 'cas-jwt': token }, payload: { definition: DEFINITION } });
    if (set.statusCode !== 200) throw new Error(`--definition=${DEFINITION}: ${set.body}`);
  }
  const viewer = await MediaClient.open(shore.port, token);
  const recordings = async () => {
    const res = await shore.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/200', headers: { 'cas-jwt': token }, payload: { cameraId: camera } });
    return res.json<{ data: RecordQueryPage }>().data.records.sort((a, b) => a.start - b.start);
  };
  const state = async () => {
    const rows = await recordings();
    const t0 = rows[0]?.start ?? 0;
    const spans = rows.map((r) => `${r.backfilled ? 'B' : 'L'}[${((r.start - t0) / 1000).toFixed(0)}–${((r.end - t0) / 1000).toFixed(0)}]`).join(' ');
    const results = shore.app.backfill.results.map((r) => `${r.outcome}:${r.files}`).join(',');
    return `[${link}] link ${shore.app.agents.get(ship)?.ready ? 'up' : 'down'}, recordings ${spans}; backfill ${results || 'none yet'}; pending ${JSON.stringify(shore.app.backfill.pendingBackfill(ship, camera))}`;
  };
  const bytes = (purpose: 'backfill' | 'live') => shore.app.metrics.linkBytesOf(ship, 'up', purpose) + shore.app.metrics.linkBytesOf(ship, 'down', purpose);
  try {
    viewer.send({ type: 'play', mode: 'live', cameraId: camera });
    await until('a minute of shore recording', 180_000, async () => ((await recordings()).reduce((n, r) => n + r.end - r.start, 0) > 60_000 ? true : undefined), state);
    const cutAt = Date.now();
    shaper.setOutage(true);
    console.log(`[${link}] link down for ${OUTAGE_MS / 60_000} min`);
    await sleep(OUTAGE_MS);
    const before = { backfill: bytes('backfill'), live: bytes('live') };
    shaper.setOutage(false);
    const backAt = Date.now();
    const resultsBefore = shore.app.backfill.results.length;
    const gap = await until('a live recording after the outage', 300_000, async () => {
      const live = (await recordings()).filter((r) => !r.backfilled);
      const last = live.filter((r) => r.end <= backAt).at(-1);
      const next = live.find((r) => r.start >= cutAt);
      return last && next ? { start: last.end, end: next.start, liveBackAt: Date.now() } : undefined;
    }, state);
    const coveredAt = await until('the gap covered', 3_600_000, async () => {
      const rows = (await recordings()).filter((r) => r.end > gap.start && r.start < gap.end);
      let at = gap.start;
      let hole = 0;
      for (const r of rows) {
        hole = Math.max(hole, r.start - at);
        at = Math.max(at, r.end);
      }
      return Math.max(hole, gap.end - at) < 1_000 ? Date.now() : undefined;
    }, state);
    // Every refill since the link returned (the bytes under `backfill` since then are theirs), and of them those of the outage's gap.
    const after = shore.app.backfill.results.slice(resultsBefore).filter((r) => r.files > 0);
    const results = after.filter((r) => r.cameraId === camera && r.gap.start >= gap.start - 1_000 && r.gap.end <= gap.end + 1_000);
    const shipBytes = results.reduce((n, r) => n + r.shipBytes, 0);
    const sentAfter = after.reduce((n, r) => n + r.shipBytes, 0);
    const crossed = bytes('backfill') - before.backfill;
    const live = bytes('live') - before.live;
    const files = results.reduce((n, r) => n + r.files, 0);
    const copied = results.flatMap((r) => (r.covered ? [r.covered] : []));
    const span = copied.length > 0 ? Math.max(...copied.map((c) => c.end)) - Math.min(...copied.map((c) => c.start)) : 0;
    const kbps = span > 0 ? (shipBytes * 8) / span : 0;
    return (
      `[${link}] outage ${(OUTAGE_MS / 60_000).toFixed(0)} min → gap ${((gap.end - gap.start) / 1000).toFixed(1)} s in the shore recording; ` +
      `live back ${((gap.liveBackAt - backAt) / 1000).toFixed(1)} s after the link, gap covered ${((coveredAt - backAt) / 1000).toFixed(1)} s after the link ` +
      `(copying ${(results.reduce((n, r) => n + r.ms, 0) / 1000).toFixed(1)} s over ${results.length} passes); ` +
      `${files} files (${results.reduce((n, r) => n + r.transcodedFiles, 0)} transcoded; asked ${results[0]?.choice ?? '-'} ${JSON.stringify(results[0]?.asked ?? null)}), ` +
      `${(shipBytes / 1e6).toFixed(2)} MB sent by the ship (${kbps.toFixed(0)} kbit/s), ` +
      `whole files ${(results.reduce((n, r) => n + r.fileBytes, 0) / 1e6).toFixed(2)} MB; ` +
      `${(crossed / 1e6).toFixed(2)} MB crossed under backfill since the link returned, for ${(sentAfter / 1e6).toFixed(2)} MB the ship sent (${(crossed / sentAfter).toFixed(4)}×); live beside it ${(live / 1e6).toFixed(2)} MB`
    );
  } finally {
    viewer.ws.close();
    await agent.stop();
    await shaper.close();
    await shore.close();
  }
}

// A sub-stream as ships record for the link: 320×180 at 10 fps (about 170 kbit/s).
const cameraFile = await makeCameraFile(join(tmp.dir, 'deck.mp4'), { width: 320, height: 180, rate: 10, seconds: 20, gop: 20 });
try {
  const lines = await Promise.all(LINKS.map((link) => run(link, cameraFile)));
  for (const line of lines) console.log(line);
  console.log(`(camera: 320×180 at 10 fps, ${((readFileSync(cameraFile).length * 8) / 20 / 1000).toFixed(0)} kbit/s, looped; ship segments 60 s)`);
} finally {
  tmp.remove();
}
process.exit(0);
