/**
 * Ship-end playback as an operator gets it: how quickly a recording on the ship starts playing on
 * shore over a satellite link, and what a minute of playback costs that link at 1×, 4× and 16×
 * against the naive speed × bitrate (every recorded frame sent faster). Prints figures; not part of
 * npm test. Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/ship-playback.bench.ts [--profile=VSAT|FBB|all] [--quick]
 *
 * About 4 minutes (--quick about 2). One shore server (in-memory database, demo fleet, logger off)
 * and one real ShipAgent per profile, dialling shore through a LinkShaper with that profile (VSAT:
 * S1002, FBB: S1003) and playing back its synthetic camera's recorder. Viewers are raw media
 * sockets. The bytes are shore's own count of the ship's uplink,
 * `shipcctv_link_bytes_total{direction="up",purpose="playback"}` (kind-2 frames with their headers
 * and WebSocket framing). (packages/simulator/bench/ship-playback.bench.ts measures the agent alone, without
 * shore or a link.)
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { type LinkReport, type LogonData, type MediaServerMessage, PATHS, type PlaybackSpeed, TOKEN_HEADER, type VodQueryResult } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { LinkShaper, PROFILES, syntheticCameras } from '@ship-cctv/simulator';
import { buildApp } from '@ship-cctv/server';
import { openDatabase } from '@ship-cctv/server/db';
import { DEMO_PASSWORD } from '../../../apps/server/src/core/db/demo-fleet.ts';
import { seedDemoFleet } from '../../../apps/server/src/core/db/seed.ts';
import { chooseTemplate } from '../../../apps/server/src/modules/fleet/templates.ts';
import { loadAccess } from '../../../apps/server/src/core/orgs/access.ts';

type ProfileName = 'VSAT' | 'FBB';
const ALL: ProfileName[] = ['VSAT', 'FBB'];
const SHIP_OF: Record<ProfileName, string> = { VSAT: 'S1002', FBB: 'S1003' };

const argv = process.argv.slice(2);
const argOf = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const QUICK = argv.includes('--quick');
const profileArg = (argOf('profile') ?? 'all').toUpperCase();
const PROFILES_RUN = profileArg === 'ALL' ? ALL : ALL.filter((p) => p === profileArg);
if (PROFILES_RUN.length === 0) {
  console.error(`unknown --profile=${profileArg}: VSAT, FBB or all`);
  process.exit(2);
}
const CFG = QUICK ? { firstFrameRuns: 2, windowS: 15 } : { firstFrameRuns: 4, windowS: 30 };
const FIRST_FRAME_SPEEDS: PlaybackSpeed[] = [16, 1];
const BYTE_SPEEDS: PlaybackSpeed[] = [1, 4, 16];

/** Opens /metrics on the bench's own server. */
const METRICS_TOKEN = 'bench-metrics';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A player's media socket reduced to what is measured: when things arrive, and how many bytes. */
class Viewer {
  readonly events: { at: number; msg: MediaServerMessage }[] = [];
  bytes = 0;
  firstInitAt: number | undefined;
  firstFragmentAt: number | undefined;
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const at = performance.now();
      const buf = data as Buffer;
      if (!isBinary) {
        this.events.push({ at, msg: JSON.parse(buf.toString('utf8')) as MediaServerMessage });
        return;
      }
      this.bytes += buf.length;
      if (buf.subarray(4, 8).toString('latin1') === 'ftyp') this.firstInitAt ??= at;
      else this.firstFragmentAt ??= at;
    });
  }
  static open(port: number, token: string): Promise<Viewer> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.media}?token=${encodeURIComponent(token)}`);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new Viewer(ws)));
      ws.once('error', reject);
    });
  }
  send(msg: unknown): void {
    this.ws.send(JSON.stringify(msg));
  }
  lastPosition(): number | undefined {
    for (let i = this.events.length - 1; i >= 0; i--) {
      const m = this.events[i]?.msg;
      if (m?.type === 'position') return m.time;
    }
    return undefined;
  }
  error(): string | undefined {
    const e = this.events.find((x) => x.msg.type === 'error')?.msg;
    return e?.type === 'error' ? `${e.code}: ${e.message}` : undefined;
  }
  async until(pred: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!pred()) {
      const err = this.error();
      if (err) throw new Error(`${what}: ${err}`);
      if (performance.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await sleep(5);
    }
  }
  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

function upBytes(metrics: string, ship: string, purpose: string): number {
  const m = new RegExp(`^shipcctv_link_bytes_total\\{ship="${ship}",direction="up",purpose="${purpose}"\\} (\\d+)$`, 'm').exec(metrics);
  return m ? Number(m[1]) : 0;
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) await Promise.resolve(fn()).catch(() => undefined);
  };
  process.on('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  const hardStop = setTimeout(() => {
    console.error('[bench] still running after 10 minutes: stopping');
    void cleanup().finally(() => process.exit(1));
  }, 600_000);
  hardStop.unref();

  try {
    const database = await openDatabase({});
    cleanups.push(() => database.close());
    await seedDemoFleet(database.db);
    const app = await buildApp({ database, metricsToken: METRICS_TOKEN });
    cleanups.push(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const port = address.port;
    const logon = await app.inject({ method: 'POST', url: '/api/v1/sys/logon', payload: { username: 'demo', password: DEMO_PASSWORD } });
    const token = logon.json<{ data: LogonData }>().data.token;
    const metrics = async () => (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    // The definition playback is encoded at: the ship's default, as shore picks it.
    const choice = chooseTemplate(await app.fleet.shipConfig(await loadAccess(app.database.db, 'u-demo'), 'blueocean', 'S1002'), undefined);
    if (!choice.ok) throw new Error('no default definition');
    const model = choice.requested;

    console.log(`Ship-end playback benchmark${QUICK ? ' (quick)' : ''}: default definition ${model.width}×${model.height} @ ${model.frameRate} fps, ${model.bitrateKbps} kbit/s`);
    const firstFrameRows: string[][] = [];
    const byteRows: string[][] = [];

    for (const profileName of PROFILES_RUN) {
      const profile = PROFILES[profileName];
      const shipId = SHIP_OF[profileName];
      const cameraId = `${shipId}-C01-1`;
      const shaper = new LinkShaper({ target: { host: '127.0.0.1', port }, profile });
      await shaper.listen();
      cleanups.push(() => shaper.close());
      const report: LinkReport = { linkType: profile.linkType, quality: 80, duplex: 'BOTH' };
      const agent = new ShipAgent(
        { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId, key: await app.agentKeys.issue(shipId), cameras: [{ cameraId, source: 'synthetic', name: `${shipId} Bridge` }] },
        { current: () => report, onChange: () => () => undefined },
        { minBackoffMs: 200, maxBackoffMs: 1_000, cameraKinds: [syntheticCameras()] },
      );
      agent.start();
      cleanups.push(() => agent.stop());
      const online = performance.now();
      while (!app.agents.get(shipId)?.ready) {
        if (performance.now() - online > 30_000) throw new Error(`${shipId} did not come online`);
        await sleep(20);
      }
      const backlog = () => {
        const up = shaper.stats('up');
        return up.queuedBytes + up.inFlightBytes;
      };

      // What the ship holds: the longest recorded span of the last 12 hours (asked over the link), then from the cache.
      const now = Date.now();
      const vodUrl = (from: number, to: number) => `/cctvv3-server/v3/vod/query/${shipId}/${cameraId}/${from}/${to}`;
      const vodStart = performance.now();
      const res = await app.inject({ method: 'GET', url: vodUrl(now - 12 * 3_600_000, now - 60_000), headers: { [TOKEN_HEADER]: token } });
      const vodMs = performance.now() - vodStart;
      if (res.statusCode !== 200) throw new Error(`vod query: ${res.statusCode} ${res.body}`);
      const vod = res.json<{ data: VodQueryResult }>().data;
      const span = [...vod.spans].sort((a, b) => b.end - b.start - (a.end - a.start))[0];
      if (!span || span.end - span.start < 2 * 3_600_000) throw new Error(`no recorded span of two hours on ${shipId}: ${JSON.stringify(vod.spans)}`);
      const cachedStart = performance.now();
      const cached = await app.inject({ method: 'GET', url: vodUrl(now - 12 * 3_600_000, now - 3 * 3_600_000), headers: { [TOKEN_HEADER]: token } });
      const cachedMs = performance.now() - cachedStart;
      const fromCache = cached.json<{ data: VodQueryResult }>().data.cached;
      console.log(
        `\n${profileName} (${shipId}): span query over the link ${fmt(vodMs)} ms (${vod.spans.length} spans); a past range again: ${fmt(cachedMs, 1)} ms${fromCache ? ', from the shore cache' : ''}`,
      );

      // First frame: from `play` to the first media fragment at the viewer, a new playback each run.
      for (const speed of FIRST_FRAME_SPEEDS) {
        const init: number[] = [];
        const first: number[] = [];
        for (let run = 0; run < CFG.firstFrameRuns; run++) {
          const v = await Viewer.open(port, token);
          const from = span.start + run * 10 * 60_000;
          const t0 = performance.now();
          v.send({ type: 'play', mode: 'shipPlayback', cameraId, start: from, end: from + 3_600_000, speed });
          await v.until(() => v.firstFragmentAt !== undefined, 60_000, `first fragment (${profileName}, ${speed}×)`);
          init.push((v.firstInitAt ?? NaN) - t0);
          first.push((v.firstFragmentAt ?? NaN) - t0);
          v.send({ type: 'stop' });
          await v.close();
          // The stopped stream's last bytes drain from the shaped uplink before the next start.
          while (agent.playback.activeStreamIds.length > 0 || backlog() > 0) await sleep(50);
          await sleep(300);
        }
        firstFrameRows.push([profileName, `${speed}×`, String(CFG.firstFrameRuns), `${fmt(median(init))} ms`, `${fmt(median(first))} ms`, `${fmt(Math.max(...first))} ms`]);
      }

      // Link bytes per minute of playback, over a window once the stream runs.
      for (const speed of BYTE_SPEEDS) {
        const v = await Viewer.open(port, token);
        v.send({ type: 'play', mode: 'shipPlayback', cameraId, start: span.start, end: span.start + 2 * 3_600_000, speed });
        await v.until(() => v.firstFragmentAt !== undefined && v.lastPosition() !== undefined, 60_000, `playing (${profileName}, ${speed}×)`);
        await sleep(2_000);
        const m0 = await metrics();
        const p0 = v.lastPosition() ?? NaN;
        const t0 = performance.now();
        await sleep(CFG.windowS * 1000);
        const m1 = await metrics();
        const p1 = v.lastPosition() ?? NaN;
        const wallMin = (performance.now() - t0) / 60_000;
        const bytes = upBytes(m1, shipId, 'playback') - upBytes(m0, shipId, 'playback');
        const control = upBytes(m1, shipId, 'control') - upBytes(m0, shipId, 'control');
        const recordedMin = (p1 - p0) / 60_000;
        const dropped = agent.playback.stats()[0]?.droppedFragments ?? 0;
        const naive = (speed * model.bitrateKbps * 1000 * 60) / 8;
        const perWallMin = bytes / wallMin;
        byteRows.push([
          profileName,
          `${speed}×`,
          fmt(perWallMin / 1e6, 2),
          fmt(naive / 1e6, 2),
          `${fmt((100 * perWallMin) / naive)} %`,
          fmt(bytes / recordedMin / 1e6, 3),
          fmt(recordedMin / wallMin, 1),
          fmt(control / wallMin / 1e3, 1),
          String(dropped),
        ]);
        v.send({ type: 'stop' });
        await v.close();
        while (agent.playback.activeStreamIds.length > 0 || backlog() > 0) await sleep(50);
        await sleep(500);
      }
    }

    console.log('\nFirst frame of ship-end playback (play → first media fragment at the viewer; a new playback each run)');
    console.log(table(['link', 'speed', 'runs', 'init segment (median)', 'first frame (median)', 'worst'], firstFrameRows));
    console.log(`\nUplink bytes of playback (${CFG.windowS} s windows; naive = speed × ${model.bitrateKbps} kbit/s)`);
    console.log(
      table(
        ['link', 'speed', 'MB per minute watched', 'naive', 'of naive', 'MB per recorded minute', 'recorded min per min', 'control kB/min', 'fragments dropped'],
        byteRows,
      ),
    );
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error('[bench] failed:', err);
    process.exit(1);
  },
);
