/**
 * Data budgets benchmark: what a 16-cell grid of one FleetBroadband ship costs per hour — (a) every
 * cell at the ship's standard definition, (b) size-based (the link policy's level for a 16-cell grid
 * over FBB: the lowest), (c) stills of every camera every 30 s through the real pictures path —, the
 * time to the first picture of each, and a day of the demo fleet's link schedules against a daily
 * live cap with those figures (where the 80 % notice and the 100 % policy engage, the bytes saved).
 * Prints figures; not part of npm test. Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/budgets.bench.ts [--quick] [--seconds=60] [--stills-rounds=3]
 *        [--links=FBB,FOURTHG] [--parts=grid,day] [--cap-mb=300] [--stills-template=standard|lowest]
 *
 * Everything runs here: a shore server (embedded database, the demo fleet plus a bench ship B1601
 * with 16 synthetic cameras, no sound), the ship's agent behind a LinkShaper with the real FBB
 * profile (its jitter and 1 % packet loss, seeded), and 16 viewers on media sockets as the player's
 * cells open them. Each live mode starts cold (nothing of the previous mode still on the link) and
 * is measured over `--seconds` from the play requests: shore's link counters (purpose live) and the
 * shaper's own byte count, scaled to an hour. The stills mode asks for a picture of each camera every
 * 30 s (`POST /cctvv3-server/v3/snapshot/requestPro/…/live`, as an operator's snapshot) for
 * `--stills-rounds` rounds, counting the pictures purpose until the last is stored on shore. The
 * FOURTHG run (a link with room for everything) gives what the cameras send per definition, which
 * the day part needs for links other than FBB. `--quick`: 20 s a mode, two stills rounds.
 *
 * The day part reads the figures of the grid part (or, run alone, of the last run, kept in the
 * system's temporary folder) and simulates each demo ship's next local day (budget-day.ts).
 * BUDGETS_BENCH_PORT (default 18500) is the shore's port; the shaper listens on the next one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { LINK_POLICY_DEFAULTS, type LinkReport, type SnapshotAnswer, TOKEN_HEADER, levelFor, policyLinkOf } from '@ship-cctv/protocol';
import { type App, buildApp } from '@ship-cctv/server';
import * as t from '@ship-cctv/server/schema';
import { demoShips } from '../../../apps/server/src/core/db/demo-fleet.ts';
import { ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras, LinkShaper, PROFILES, demoScheduleFor, seededRandom, type LinkProfileName } from '@ship-cctv/simulator';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { signIn } from '../test/helpers/shore.ts';
import { DAY_MS, type MeasuredRates, VIEWING_PATTERN, gridFor, linkTimeline, shipClock, simulateShipDay } from './budget-day.ts';

const argv = process.argv.slice(2);
const argOf = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const QUICK = argv.includes('--quick');
const numberArg = (name: string, fallback: number, min: number): number => {
  const raw = argOf(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name}=${raw}: a number of at least ${min}`);
  return n;
};
const SECONDS = numberArg('seconds', QUICK ? 20 : 60, 5);
const STILLS_ROUNDS = Math.round(numberArg('stills-rounds', QUICK ? 2 : 3, 1));
const CAP_MB = numberArg('cap-mb', 300, 1);
const PARTS = new Set((argOf('parts') ?? 'grid,day').split(','));
for (const p of PARTS) if (p !== 'grid' && p !== 'day') throw new Error(`--parts: grid and/or day (got ${p})`);
const LINKS = (argOf('links') ?? 'FBB').split(',') as LinkProfileName[];
for (const l of LINKS) if (!(l in PROFILES) || l === 'OFFLINE') throw new Error(`--links: link profiles such as FBB, VSAT, FOURTHG (got ${l})`);
const REFERENCE_CAMERAS = Math.round(numberArg('reference-cameras', 2, 1));
const STILLS_TEMPLATE = argOf('stills-template') ?? 'standard';
if (STILLS_TEMPLATE !== 'standard' && STILLS_TEMPLATE !== 'lowest') throw new Error(`--stills-template: standard or lowest (got ${STILLS_TEMPLATE})`);
const PORT = Number(process.env.BUDGETS_BENCH_PORT ?? 18500);
const RATES_FILE = join(tmpdir(), 'ship-cctv-budgets-bench-rates.json');

const SHIP = 'B1601';
const FLEET_START = Date.UTC(2026, 10, 30);
const CELLS = 16;
const STILLS_EVERY_S = 30;
const METRICS_TOKEN = 'budgets-bench-metrics';
const channelOf = (i: number) => `${SHIP}-C${String(i + 1).padStart(2, '0')}`;
const CAMERAS = Array.from({ length: CELLS }, (_, i) => `${channelOf(i)}-1`);

const MOOF = Buffer.from('moof', 'latin1');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const kbps = (bytesPerSecond: number) => `${((bytesPerSecond * 8) / 1000).toFixed(0)} kbit/s`;
const ms = (n: number) => (Number.isFinite(n) ? `${(n / 1000).toFixed(2)} s` : `none within the window`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

/** A bench ship of 16 channels, one camera each, with the definitions of the demo's first ship. */
async function addBenchShip(app: App): Promise<{ standard: { id: number; label: string }; lowest: { id: number; label: string } }> {
  const db = app.database.db;
  const [config] = await db.select().from(t.shipConfigs).where(eq(t.shipConfigs.shipId, 'S1001'));
  const groupId = config?.defaultGroupId;
  if (!groupId) throw new Error('the demo ship S1001 has no default definition group');
  const [group] = await db.select().from(t.definitionGroups).where(eq(t.definitionGroups.id, groupId));
  const models = await db.select().from(t.definitionModels).where(eq(t.definitionModels.groupId, groupId));
  const standard = models.find((m) => m.id === group?.defaultModelId);
  const lowest = [...models].sort((a, b) => a.width * a.height * a.frameRate - b.width * b.height * b.frameRate)[0];
  if (!standard || !lowest) throw new Error(`definition group ${groupId} has no default or no models`);
  await db.insert(t.ships).values({ id: SHIP, name: '十六路试验船', enName: 'SIXTEEN CAMERAS', orgId: 'blueocean', timeZone: 'Asia/Singapore', sort: 99, jsonObject: { version: '3', third: [] } });
  await db.insert(t.shipConfigs).values({ shipId: SHIP, defaultGroupId: groupId, talk: false, audio: false });
  await db.insert(t.shipDefinitionGroups).values({ shipId: SHIP, groupId });
  for (let i = 0; i < CELLS; i++) {
    await db.insert(t.channels).values({ id: channelOf(i), shipId: SHIP, name: `Camera ${i + 1}`, sort: i });
    await db.insert(t.cameras).values({ id: CAMERAS[i] as string, channelId: channelOf(i), name: `Camera ${i + 1}`, sourceType: '8700', other: `cameraId=${CAMERAS[i]}` });
  }
  const label = (m: typeof standard) => `${m.width}×${m.height} @ ${m.frameRate} fps, ${m.bitrateKbps} kbit/s (template ${m.id})`;
  return { standard: { id: standard.id, label: label(standard) }, lowest: { id: lowest.id, label: label(lowest) } };
}

/** A grid cell: its media socket, when its play went out, its first media fragment, and what it was told. */
class Cell {
  playAt = 0;
  firstFragmentAt: number | undefined;
  fragments = 0;
  templates: number[] = [];
  notices: string[] = [];

  private constructor(readonly client: MediaClient) {}

  static async open(port: number, token: string, cameraId: string, templateId: number): Promise<Cell> {
    const client = await MediaClient.open(port, token);
    const cell = new Cell(client);
    client.ws.on('message', (data, isBinary) => {
      const buf = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (!isBinary) {
        const msg = JSON.parse(buf.toString('utf8')) as { type: string; code?: string; templateId?: number };
        if (msg.type === 'codec' && msg.templateId !== undefined) cell.templates.push(msg.templateId);
        if (msg.type === 'notice' && msg.code) cell.notices.push(msg.code);
        return;
      }
      // A live fragment is `prft` (when it left the encoder) then `moof` + `mdat`.
      if (buf.subarray(0, 128).indexOf(MOOF) < 0) return;
      cell.fragments++;
      cell.firstFragmentAt ??= performance.now();
    });
    cell.playAt = performance.now();
    client.send({ type: 'play', mode: 'live', cameraId, templateId });
    return cell;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

interface LiveResult {
  link: LinkProfileName;
  mode: string;
  cells: number;
  seconds: number;
  liveBytes: number;
  linkUpBytes: number;
  firstMs: number[];
  /** Cells that showed no picture within the window. */
  blank: number;
  fps: number;
  degradedCells: number;
  droppedFragments: number;
  lostSegments: number;
  stalledMs: number;
  maxQueueMs: number;
  encoders: number;
  /** The event loop's delay in this process (shore, agent and shaper share it), p99 and max, ms. */
  loopP99: number;
  loopMax: number;
}

async function main(): Promise<void> {
  console.log(`[budgets] load average at start ${load()} (2 CPUs shared: figures are indicative)`);
  let rates: MeasuredRates | undefined;
  if (PARTS.has('grid')) rates = await gridPart();
  if (PARTS.has('day')) {
    if (!rates) {
      try {
        rates = JSON.parse(readFileSync(RATES_FILE, 'utf8')) as MeasuredRates;
        console.log(`[day] figures of the last grid run (${RATES_FILE})`);
      } catch {
        throw new Error(`--parts=day needs the figures of a grid run: run with --parts=grid (or both) first (${RATES_FILE} is missing)`);
      }
    }
    dayPart(rates);
  }
}

async function gridPart(): Promise<MeasuredRates> {
  const app = await buildApp({ seedDemo: true, metricsToken: METRICS_TOKEN, jwtSecret: 'budgets-bench-jwt-secret-of-32-characters!', live: { lingerMs: 500 } });
  const templates = await addBenchShip(app);
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const key = await app.agentKeys.issue(SHIP);
  const token = await signIn(app);
  const shaper = new LinkShaper({ profile: PROFILES.FBB, target: { port: PORT }, random: seededRandom(1601) });
  await shaper.listen(PORT + 1);
  let report: LinkReport = { linkType: 'FBB', quality: 70, duplex: 'BOTH' };
  const listeners = new Set<(r: LinkReport) => void>();
  const agent = new ShipAgent(
    { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP, key, cameras: CAMERAS.map((cameraId, i) => ({ cameraId, source: 'synthetic' as const, name: `Camera ${i + 1}` })) },
    {
      current: () => report,
      onChange: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
    { cameraKinds: [syntheticCameras()], minBackoffMs: 200, maxBackoffMs: 1_000 },
  );
  let disconnects = 0;
  agent.on('disconnected', (reason) => {
    disconnects++;
    console.log(`[grid] ${SHIP}'s link to shore dropped (${reason}); load ${load()}`);
  });
  agent.start();
  const online = async () => {
    const deadline = Date.now() + 60_000;
    while (!app.agents.get(SHIP)?.ready) {
      if (Date.now() > deadline) throw new Error(`${SHIP} did not come online within 60 s`);
      await sleep(50);
    }
  };
  await online();
  let maxQueueMs = 0;
  app.agents.events.on('queue', (shipId, q) => {
    if (shipId === SHIP) maxQueueMs = Math.max(maxQueueMs, q.queuedMs);
  });
  const counter = (purpose: 'live' | 'pictures') => app.metrics.linkBytesOf(SHIP, 'up', purpose);
  /** Waits until the ship sends nothing more: no stream on the agent, the shaper's uplink empty. */
  const quiet = async () => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = shaper.stats('up');
      if (agent.streams.activeStreamIds.length === 0 && up.queuedBytes + up.inFlightBytes === 0) break;
      if (Date.now() > deadline) throw new Error('the uplink did not go quiet within 60 s of closing every cell');
      await sleep(200);
    }
    await sleep(1_000);
  };

  const useLink = async (name: LinkProfileName) => {
    if (shaper.profile.name === name) return;
    shaper.setProfile(PROFILES[name]);
    report = { linkType: PROFILES[name].linkType, quality: PROFILES[name].quality, duplex: 'BOTH' };
    for (const l of listeners) l(report);
    await sleep(1_000);
  };

  const liveMode = async (link: LinkProfileName, mode: string, templateId: number, cameras: readonly string[] = CAMERAS): Promise<LiveResult> => {
    await useLink(link);
    await quiet();
    maxQueueMs = 0;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const lostBefore = shaper.stats('up');
    const before = { live: counter('live'), up: shaper.bytes.up };
    const started = performance.now();
    const cells = await Promise.all(cameras.map((c) => Cell.open(PORT, token, c, templateId)));
    let encoders = 0;
    let dropped = 0;
    // Sampled through the window: streams leave the agent's list when they stop.
    const sampler = setInterval(() => {
      const s = agent.streams.stats();
      encoders = Math.max(encoders, s.length);
      dropped = Math.max(dropped, s.reduce((n, x) => n + x.droppedFragments, 0));
    }, 1_000);
    await sleep(Math.max(0, started + SECONDS * 1000 - performance.now()));
    clearInterval(sampler);
    const s = agent.streams.stats();
    dropped = Math.max(dropped, s.reduce((n, x) => n + x.droppedFragments, 0));
    const elapsed = (performance.now() - started) / 1000;
    const after = { live: counter('live'), up: shaper.bytes.up };
    const lost = shaper.stats('up');
    const result: LiveResult = {
      link,
      mode,
      seconds: elapsed,
      liveBytes: after.live - before.live,
      linkUpBytes: after.up - before.up,
      // A cell that showed nothing within the window counts as later than any that did.
      firstMs: cells.map((c) => (c.firstFragmentAt === undefined ? Infinity : c.firstFragmentAt - c.playAt)),
      blank: cells.filter((c) => c.firstFragmentAt === undefined).length,
      cells: cells.length,
      fps: cells.reduce((n, c) => n + c.fragments, 0) / cells.length / elapsed,
      degradedCells: cells.filter((c) => c.notices.includes('lowestDefinition')).length,
      droppedFragments: dropped,
      lostSegments: lost.lostSegments - lostBefore.lostSegments,
      stalledMs: lost.stalledMs - lostBefore.stalledMs,
      maxQueueMs,
      encoders,
      loopP99: loop.percentile(99) / 1e6,
      loopMax: loop.max / 1e6,
    };
    loop.disable();
    const blank = cells.find((c) => c.firstFragmentAt === undefined);
    if (blank) console.log(`[grid] ${link} ${mode}: a cell without a picture after ${SECONDS} s; its last events: ${JSON.stringify(blank.client.events.slice(-3))}`);
    await Promise.all(cells.map((c) => c.close()));
    return result;
  };

  const stillsMode = async (link: LinkProfileName, templateId: number) => {
    await useLink(link);
    await quiet();
    const before = { pictures: counter('pictures'), up: shaper.bytes.up };
    const firstMs: number[] = [];
    const roundMs: number[] = [];
    const sizes: number[] = [];
    let size = '';
    let failed = 0;
    const started = performance.now();
    const rounds: Promise<void>[] = [];
    for (let r = 0; r < STILLS_ROUNDS; r++) {
      await sleep(Math.max(0, started + r * STILLS_EVERY_S * 1000 - performance.now()));
      const asked = performance.now();
      rounds.push(
        (async () => {
          const answers = await Promise.all(
            CAMERAS.map(async (cameraId, i) => {
              const res = await app.inject({ method: 'POST', url: `/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${channelOf(i)}/${cameraId}/${templateId}/live`, headers: { [TOKEN_HEADER]: token } });
              if (res.statusCode !== 200) throw new Error(`snapshot of ${cameraId} answered ${res.statusCode}: ${res.body}`);
              return res.json<{ data: SnapshotAnswer }>().data;
            }),
          );
          size = `${answers[0]?.width}×${answers[0]?.height}`;
          const times = await Promise.all(
            answers.map(async (a) => {
              const ok = await app.pictures.waitFor(a.pictureId, 180_000);
              if (!ok) failed++;
              const row = await app.pictures.index.get(a.pictureId);
              if (row) sizes.push(row.bytes);
              return ok ? performance.now() - asked : Infinity;
            }),
          );
          if (r === 0) firstMs.push(...times);
          roundMs.push(Math.max(...times));
        })(),
      );
    }
    await Promise.all(rounds);
    const elapsed = (performance.now() - started) / 1000;
    const pictures = counter('pictures') - before.pictures;
    return { link, size, rounds: STILLS_ROUNDS, pictures, linkUpBytes: shaper.bytes.up - before.up, firstMs, roundMs, failed, seconds: elapsed, avgPicture: sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length) };
  };

  const results: LiveResult[] = [];
  const reference: LiveResult[] = [];
  let stills: Awaited<ReturnType<typeof stillsMode>> | undefined;
  const describe = (r: LiveResult) =>
    `${mb(r.liveBytes)} live in ${r.seconds.toFixed(0)} s (${kbps(r.liveBytes / r.seconds)}), ${mb((r.liveBytes / r.seconds) * 3600)} per hour; ` +
    `first picture median ${ms(median(r.firstMs))} (slowest ${ms(Math.max(...r.firstMs))}), ${r.blank} cells blank; ${r.fps.toFixed(1)} fragments/s a cell; ` +
    `${r.degradedCells} cells told lowestDefinition; ${r.droppedFragments} fragments dropped on the ship; uplink queue up to ${(r.maxQueueMs / 1000).toFixed(1)} s; ` +
    `${r.lostSegments} segments lost (${(r.stalledMs / 1000).toFixed(1)} s stalled); ${r.encoders} encoders; event loop p99 ${Math.round(r.loopP99)} ms (max ${Math.round(r.loopMax)}); load ${load()}`;
  // Size-based: the level the organisation's default policy for FBB gives a 16-cell grid.
  // The bench ship has no satellite tier: it plays its lowest for it, as the web app does.
  const asked = levelFor(LINK_POLICY_DEFAULTS[policyLinkOf('FBB')], { gridSize: CELLS, fullScreen: false }).level;
  const sized = asked === 'satellite' ? 'lowest' : asked;
  if (sized === 'best') throw new Error('the FBB policy asks for the best definition in a 16-cell grid, which the bench ship does not have');
  const modes = [
    ['(a) standard', templates.standard.id],
    [`(b) size-based: ${sized}`, templates[sized].id],
  ] as const;
  try {
    console.log(`[grid] ship ${SHIP}: ${CELLS} synthetic cameras, no sound; standard = ${templates.standard.label}, lowest = ${templates.lowest.label}; ${SECONDS} s a live mode`);
    // What one camera sends at each definition, on a link with room for it and few encoders on the machine.
    for (const [mode, tpl] of [
      ['(a) standard', templates.standard.id],
      ['(b) lowest', templates.lowest.id],
    ] as const) {
      const r = await liveMode('FOURTHG', mode, tpl, CAMERAS.slice(0, REFERENCE_CAMERAS));
      reference.push(r);
      console.log(`[reference] FOURTHG, ${REFERENCE_CAMERAS} cameras, ${mode}: ${describe(r)}`);
    }
    for (const link of LINKS) {
      for (const [mode, tpl] of modes) {
        const r = await liveMode(link, mode, tpl);
        results.push(r);
        console.log(`[grid] ${link} ${mode}: ${describe(r)}`);
      }
    }
    const stillsTemplate = STILLS_TEMPLATE === 'standard' ? templates.standard.id : templates.lowest.id;
    stills = await stillsMode(LINKS.includes('FBB') ? 'FBB' : (LINKS[0] as LinkProfileName), stillsTemplate);
    console.log(
      `[grid] ${stills.link} (c) stills every ${STILLS_EVERY_S} s (${stills.size}): ${stills.rounds} rounds in ${stills.seconds.toFixed(0)} s, ${mb(stills.pictures)} of pictures (${(stills.pictures / (stills.rounds * CELLS) / 1000).toFixed(1)} kB a still on the link, ` +
        `${(stills.avgPicture / 1000).toFixed(1)} kB a JPEG), ${mb((stills.pictures / stills.rounds) * (3600 / STILLS_EVERY_S))} per hour; first still at shore median ${ms(median(stills.firstMs))} ` +
        `(slowest ${ms(Math.max(...stills.firstMs))}); a round of 16 done after ${stills.roundMs.map(ms).join(', ')}; ${stills.failed} failed; load ${load()}`,
    );
    if (disconnects > 0) console.log(`[grid] the ship's link to shore dropped ${disconnects} times during the run`);
  } finally {
    await agent.stop();
    await shaper.close();
    await app.close();
  }

  // The table: the 16-cell grid over each link, and 16 × the reference camera on a link with room for it.
  const rows: string[][] = [['link', 'mode', 'window', 'bytes', 'per hour', 'all uplink per hour', 'first picture (median of 16)', 'what happened']];
  for (const r of results) {
    rows.push([
      r.link,
      r.mode,
      `${r.seconds.toFixed(0)} s`,
      mb(r.liveBytes),
      mb((r.liveBytes / r.seconds) * 3600),
      mb((r.linkUpBytes / r.seconds) * 3600),
      ms(median(r.firstMs)),
      `${r.fps.toFixed(1)} fps a cell; ${r.degradedCells}/16 cells stepped to the lowest; ${r.droppedFragments} fragments dropped; queue ≤ ${(r.maxQueueMs / 1000).toFixed(1)} s; ${r.lostSegments} segments lost`,
    ]);
  }
  if (stills) {
    rows.push([
      stills.link,
      `(c) stills every ${STILLS_EVERY_S} s, ${stills.size}`,
      `${stills.rounds} × ${STILLS_EVERY_S} s`,
      mb(stills.pictures),
      mb((stills.pictures / stills.rounds) * (3600 / STILLS_EVERY_S)),
      mb((stills.linkUpBytes / stills.rounds) * (3600 / STILLS_EVERY_S)),
      ms(median(stills.firstMs)),
      `a round of 16 on shore after ${ms(median(stills.roundMs))} (median; the ship shoots one at a time); ${stills.failed} failed`,
    ]);
  }
  for (const r of reference) {
    rows.push([
      'FOURTHG',
      `${r.mode}, 16 × ${r.cells} cameras measured`,
      `${r.seconds.toFixed(0)} s`,
      mb((r.liveBytes * CELLS) / r.cells),
      mb(((r.liveBytes / r.seconds) * 3600 * CELLS) / r.cells),
      mb(((r.linkUpBytes / r.seconds) * 3600 * CELLS) / r.cells),
      `${ms(median(r.firstMs))} (of ${r.cells})`,
      `what 16 cameras send with room on the link: ${r.fps.toFixed(1)} fps a cell`,
    ]);
  }
  printTable(rows);

  const fbb = results.filter((r) => r.link === 'FBB');
  const [refStandard, refLowest] = reference;
  if (!refStandard || !refLowest || fbb.length === 0 || !stills) throw new Error('the day part needs the FBB grid runs (--links with FBB) and the stills');
  const measured: MeasuredRates = {
    perCamera: { standard: refStandard.liveBytes / refStandard.seconds / refStandard.cells, lowest: refLowest.liveBytes / refLowest.seconds / refLowest.cells },
    fbbCarried: Math.max(...fbb.map((r) => r.liveBytes / r.seconds)),
    stillBytes: stills.pictures / (stills.rounds * CELLS),
    stillsEverySeconds: STILLS_EVERY_S,
  };
  writeFileSync(RATES_FILE, `${JSON.stringify(measured, null, 2)}\n`);
  console.log(
    `[grid] for the day: a camera sends ${kbps(measured.perCamera.standard)} at the standard, ${kbps(measured.perCamera.lowest)} at the lowest (FOURTHG); ` +
      `FBB carried at most ${kbps(measured.fbbCarried)} of live (${(((measured.fbbCarried * 8) / 1000 / PROFILES.FBB.upKbps) * 100).toFixed(0)} % of its ${PROFILES.FBB.upKbps} kbit/s); a still ${(measured.stillBytes / 1000).toFixed(1)} kB`,
  );
  return measured;
}

function printTable(rows: string[][]): void {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const [n, r] of rows.entries()) {
    console.log(`| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`);
    if (n === 0) console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  }
}

/** Each demo ship's next local day (from the run's moment), its link as its demo schedule drives it, against CAP_MB of live a day. */
function dayPart(rates: MeasuredRates): void {
  const watched = VIEWING_PATTERN.reduce((n, w) => n + w.toMinute - w.fromMinute, 0);
  console.log(
    `[day] viewing pattern, ship-local time: a grid of all the ship's cameras for 10 min at every hour 06:00–22:00 and 09:00–10:00 (${Math.floor(watched / 60)} h ${watched % 60} min a day); ` +
      `definition by the default link policy (FBB, Iridium: lowest; VSAT, 4G, LEO: the standard in a 4-cell grid, the lowest in a 9-cell one); live cap ${CAP_MB} MB a day per ship`,
  );
  console.log(`[day] a view costs min(cameras × what a camera sends on 4G, the link's rate × ${((rates.fbbCarried * 8) / 1000 / PROFILES.FBB.upKbps).toFixed(2)} — the share of FBB's rate the 16-cell grid got); stills ${(rates.stillBytes / 1000).toFixed(1)} kB a camera every ${rates.stillsEverySeconds} s`);
  // A fixed day, so that a run's figures change only with the measured rates: the fleet starts its
  // schedules at this instant and each ship's next local day after it is simulated.
  const now = FLEET_START;
  const rows: string[][] = [['ship', 'time zone', 'cameras (grid)', 'link over the day', 'live without a budget', '80 % notice', '100 % notice', 'policy from', 'lowest: live, saved', 'stills: live + pictures, saved', 'link (FBB, Iridium: stills; others: lowest): live + pictures, saved']];
  for (const [i, ship] of demoShips.entries()) {
    const cameras = ship.channels.filter((c) => !c.block).reduce((n, c) => n + c.cameras.length, 0);
    const links = linkTimeline(demoScheduleFor(i), now, 3 * DAY_MS);
    const base = { timeZone: ship.timeZone, dayOf: now, cameras, links, rates, capMb: CAP_MB };
    const free = simulateShipDay({ ...base, policy: null });
    const lowest = simulateShipDay({ ...base, policy: 'lowest' });
    const stills = simulateShipDay({ ...base, policy: 'stills' });
    const byLink = simulateShipDay({ ...base, policy: 'link' });
    const share = new Map<string, number>();
    for (const s of links) {
      const from = Math.max(s.from, free.dayStart);
      const to = Math.min(s.to, free.dayEnd);
      if (to > from) share.set(s.profile, (share.get(s.profile) ?? 0) + to - from);
    }
    const mix = [...share].sort((a, b) => b[1] - a[1]).map(([p, ms]) => `${p} ${Math.round((ms / (free.dayEnd - free.dayStart)) * 100)} %`).join(', ');
    const at = (n: number | undefined) => (n === undefined ? '—' : shipClock(n, ship.timeZone));
    const notice = (level: 80 | 100) => at(lowest.notices.find((n) => n.level === level)?.at);
    const spentFree = free.liveBytes + free.pictureBytes;
    rows.push([
      `${ship.id} ${ship.enName}`,
      ship.timeZone,
      `${cameras} (${gridFor(cameras)})`,
      mix,
      mb(free.liveBytes),
      notice(80),
      notice(100),
      lowest.policyFrom === undefined ? '—' : `${at(lowest.policyFrom)} (${lowest.narrowed}/${lowest.views} views)`,
      `${mb(lowest.liveBytes)}, ${mb(spentFree - lowest.liveBytes - lowest.pictureBytes)}`,
      `${mb(stills.liveBytes)} + ${mb(stills.pictureBytes)}, ${mb(spentFree - stills.liveBytes - stills.pictureBytes)}`,
      `${mb(byLink.liveBytes)} + ${mb(byLink.pictureBytes)}, ${mb(spentFree - byLink.liveBytes - byLink.pictureBytes)}`,
    ]);
  }
  printTable(rows);
  console.log('[day] S2002 has no default definition template: its cells start nothing until an operator picks one (spec §5); here its operator picks the model the link policy names.');
  console.log(`[day] load average at the end ${load()}`);
}

await main();
process.exit(0);
