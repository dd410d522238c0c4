/**
 * The system under test for live-video.bench.ts, in a process of its own so that its CPU and
 * memory can be read apart from the benchmark's clients: a shore server (in-memory database, demo
 * fleet) and one ship agent per `--ships` entry, each dialling shore through a LinkShaper with the
 * given profile (`none`: directly). Driven over the IPC channel of `child_process.fork`:
 *
 *   node --import tsx tests/integration/bench/live-rig.ts --ships=S1001:FOURTHG,S1002:VSAT --linger=500 [--muxer=flv|fmp4] [--camera=synthetic|rtsp] [--camera-feed=flv|h264]
 *
 * --muxer: what the agents' encoders write (LiveStreamsOptions.output); fmp4 is the old path, a frame later.
 * LIVE_BENCH_AUDIO=on|off sets every ship's `audio` flag (live sound) instead of the demo fleet's.
 * LIVE_BENCH_LOSS=off makes every shaper loss-free (default: each profile's packet loss, seeded
 * per ship so two runs lose the same segments). LIVE_RIG_AGES=1 (with --camera=rtsp) prints, when
 * the rig stops, each picture's age at the camera session, the packager and shore (rig-ages.ts).
 * LIVE_RIG_CAMERA_FPS=25 (with --camera=rtsp) runs the cameras at 25 fps, faster than every
 * template, so each live view is a transcode that thins the camera out.
 *
 * It answers requests (usage, streams, trace, metrics, stop) and ends by itself when the parent
 * goes away or after --max-seconds.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { buildApp } from '@ship-cctv/server';
import { openDatabase } from '@ship-cctv/server/db';
import { seedDemoFleet } from '../../../apps/server/src/core/db/seed.ts';
import { shipConfigs } from '@ship-cctv/server/schema';
import { type LinkReport, type LinkType } from '@ship-cctv/protocol';
import { RelaySplitter } from '../../../apps/server/src/core/media/fmp4.ts';
import { ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras, LinkShaper, PROFILES, seededRandom, type LinkDirectionStats, type LinkProfileName } from '@ship-cctv/simulator';
import type { ChildProcess } from 'node:child_process';
import type { EncoderOutput } from '../../../apps/agent/src/media/ffmpeg-args.ts';
import { BENCH_CAMERA_ENCODE, type CameraFeed, CAMERA_FEEDS, startBenchCamera } from '../../../packages/simulator/bench/bench-camera.ts';
import { signIn } from '../test/helpers/shore.ts';
import { RigAges } from './rig-ages.ts';

export type RigProfile = LinkProfileName | 'none';

export interface RigShip {
  shipId: string;
  cameraId: string;
  profile: RigProfile;
}

export interface RigReady {
  type: 'ready';
  port: number;
  token: string;
  ships: RigShip[];
  /** `--camera=rtsp`: each ship's RTSP camera (the WebRTC peer watches the same one). */
  cameras: Record<string, string>;
  startupMs: number;
}

export interface RigUsage {
  /** Epoch ms (sub-ms precision) when read. */
  at: number;
  /** process.cpuUsage(), µs. */
  cpu: { user: number; system: number };
  mem: { rss: number; heapUsed: number; external: number; arrayBuffers: number };
  /** Event-loop delay since the previous usage request, ms. */
  loop: { p50: number; p99: number; max: number };
}

export interface RigStreams {
  live: { key: string; shipId: string; viewers: number; definition: number; state: string; lingering: boolean }[];
  /** Encoders running on each ship. */
  agents: Record<string, number>;
  /** Bytes waiting in or crossing each shaped ship's uplink (0 without a shaper). */
  uplinkBacklog: Record<string, number>;
  /** Media fragments (moof boxes) that reached shore from each ship so far: the source's pace. */
  fragmentsAtShore: Record<string, number>;
  /** What each shaped ship's link lost so far, per direction (absent without a shaper). */
  linkLoss: Record<string, { up: RigLoss; down: RigLoss }>;
}

/** A shaper's loss counters (LinkDirectionStats). */
export interface RigLoss {
  lostSegments: number;
  stalledMs: number;
  windowCuts: number;
  retransmittedBytes: number;
}

/** Epoch ms of the steps of a cold start, as seen inside the rig. */
export interface RigTrace {
  /** Shore sent `live.start` to the ship (after resolving the camera and its definition). */
  shoreSent?: number;
  /** The agent got `live.start` (and at once builds ffmpeg's arguments, stamping the start time). */
  agentStart?: number;
  /** ffmpeg spawned: spawn() returned (synchronous for the synthetic camera). */
  agentSpawned?: number;
  /** Shore got `live.started` (the agent sends it on ffmpeg's first output byte). */
  shoreStarted?: number;
  /** Shore got the first live bytes of the stream. */
  shoreFirstBytes?: number;
  /** Shore got the first bytes holding a `moof` (the first media fragment begins). */
  shoreFirstMoof?: number;
  /**
   * Ships behind a shaper: each complete fragment as it reached shore, [arrival epoch ms, media
   * time of its first frame in ms]; the last 600.
   */
  shoreArrivals?: [number, number][];
}

export type RigRequest =
  | { id: number; cmd: 'usage'; gc?: boolean }
  | { id: number; cmd: 'streams' }
  | { id: number; cmd: 'trace'; shipId: string }
  | { id: number; cmd: 'metrics' }
  | { id: number; cmd: 'stop' };

export type RigReply = { id: number; ok: true; data: unknown } | { id: number; ok: false; error: string };

const epochNow = (): number => performance.timeOrigin + performance.now();

const lossOf = (s: LinkDirectionStats): RigLoss => ({
  lostSegments: s.lostSegments,
  stalledMs: s.stalledMs,
  windowCuts: s.windowCuts,
  retransmittedBytes: s.retransmittedBytes,
});

function parseArgs(argv: string[]): { ships: RigShip[]; lingerMs: number; maxSeconds: number; output: EncoderOutput; rtsp: boolean; cameraFeed: CameraFeed } {
  const arg = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const ships = (arg('ships') ?? 'S1001:none').split(',').map((spec): RigShip => {
    const [shipId = 'S1001', profile = 'none'] = spec.split(':');
    if (profile !== 'none' && !(profile in PROFILES)) throw new Error(`unknown link profile ${profile}`);
    return { shipId, cameraId: `${shipId}-C01-1`, profile: profile as RigProfile };
  });
  const output = arg('muxer') ?? 'flv';
  if (output !== 'flv' && output !== 'fmp4') throw new Error(`unknown --muxer=${output}: flv or fmp4`);
  const camera = arg('camera') ?? 'synthetic';
  if (camera !== 'synthetic' && camera !== 'rtsp') throw new Error(`unknown --camera=${camera}: synthetic or rtsp`);
  // --camera-feed: how the RTSP camera's encoder hands pictures to its server (bench-camera.ts; h264: the old, slow way).
  const cameraFeed = (arg('camera-feed') ?? 'flv') as CameraFeed;
  if (!CAMERA_FEEDS.includes(cameraFeed)) throw new Error(`unknown --camera-feed=${cameraFeed}: ${CAMERA_FEEDS.join(' or ')}`);
  return { ships, lingerMs: Number(arg('linger') ?? 500), maxSeconds: Number(arg('max-seconds') ?? 900), output, rtsp: camera === 'rtsp', cameraFeed };
}

async function main(): Promise<void> {
  if (!process.send) throw new Error('live-rig.ts runs under child_process.fork (it talks over IPC)');
  const send = (m: RigReady | RigReply) => process.send?.(m);
  const t0 = performance.now();
  const { ships, lingerMs, maxSeconds, output, rtsp, cameraFeed } = parseArgs(process.argv.slice(2));
  const cameraFps = Number(process.env.LIVE_RIG_CAMERA_FPS ?? 0) || undefined;
  const cameraProcs: ChildProcess[] = [];
  const cameras: Record<string, string> = {};
  process.once('exit', () => {
    for (const p of cameraProcs) p.kill('SIGKILL');
  });

  // Migrated and seeded before buildApp: on a busy machine that can outlast a plugin's start-up limit.
  const database = await openDatabase({});
  await seedDemoFleet(database.db);
  // LIVE_BENCH_AUDIO=on|off: every ship's `audio` flag set so (default: the demo fleet's own).
  const audio = process.env.LIVE_BENCH_AUDIO;
  if (audio === 'on' || audio === 'off') await database.db.update(shipConfigs).set({ audio: audio === 'on' });
  const metricsToken = 'live-rig-metrics';
  // LIVE_RIG_ALLOWED_ORIGINS: the benchmark's page (another port) may open the media socket.
  const allowedOrigins = (process.env.LIVE_RIG_ALLOWED_ORIGINS ?? '').split(',').filter(Boolean);
  const app = await buildApp({ database, live: { lingerMs }, metricsToken, ...(allowedOrigins.length ? { allowedOrigins } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const port = address.port;

  // Keyed by ship; each follows the stream of the ship's latest live.start only (on a slow link
  // bytes of the previous stream can still be on their way).
  const traces = new Map<string, RigTrace & { streamId: number }>();
  app.agents.events.on('message', (shipId, msg) => {
    const t = traces.get(shipId);
    if (t && msg.type === 'live.started' && msg.streamId === t.streamId) t.shoreStarted ??= epochNow();
  });
  // When shore asks a ship for a stream: its connection's send, wrapped (a trace point, nothing more).
  const startSent = new Map<number, number>();
  app.agents.events.on('online', (_shipId, conn) => {
    const send = conn.send.bind(conn);
    conn.send = (msg) => {
      if (msg.type === 'live.start') startSent.set(msg.streamId, epochNow());
      return send(msg);
    };
  });
  const MOOF = Buffer.from('moof', 'latin1');
  // Fragment ages at shore, only for shaped ships (the CPU figures run without a shaper, unburdened).
  const shaped = new Set(ships.filter((s) => s.profile !== 'none').map((s) => s.shipId));
  const splitters = new Map<string, { splitter: RelaySplitter; timescale: number }>();
  const fragmentsAtShore = new Map<string, number>();
  app.agents.events.on('binary', (shipId, { kind, payload: bytes }) => {
    if (kind !== 'live') return;
    const payload = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let n = 0;
    for (let at = payload.indexOf(MOOF); at >= 0; at = payload.indexOf(MOOF, at + 4)) n++;
    if (n) fragmentsAtShore.set(shipId, (fragmentsAtShore.get(shipId) ?? 0) + n);
  });
  app.agents.events.on('binary', (shipId, { kind, streamId, payload }) => {
    const t = traces.get(shipId);
    if (!t || kind !== 'live' || streamId !== t.streamId) return;
    const data = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    const now = epochNow();
    t.shoreFirstBytes ??= now;
    if (t.shoreFirstMoof === undefined && data.includes(MOOF)) t.shoreFirstMoof = now;
    const sp = splitters.get(shipId);
    if (!sp) return;
    try {
      for (const unit of sp.splitter.push(data)) {
        if (unit.kind === 'init') sp.timescale = unit.timescale;
        else if (unit.kind === 'fragment' && sp.timescale > 0) {
          const arrivals = (t.shoreArrivals ??= []);
          arrivals.push([now, (unit.baseMediaDecodeTime / sp.timescale) * 1000]);
          if (arrivals.length > 600) arrivals.shift();
        }
      }
    } catch (err) {
      console.error(`[rig] ${shipId}: cannot follow the fragments at shore (${err instanceof Error ? err.message : String(err)})`);
      splitters.delete(shipId);
    }
  });

  // LIVE_RIG_AGES=1: where a real camera's pictures spend their time on the ship (rig-ages.ts).
  const ages = new Map<string, RigAges>();
  if (rtsp && process.env.LIVE_RIG_AGES) {
    for (const ship of ships) ages.set(ship.shipId, new RigAges(ship.shipId));
    app.agents.events.on('binary', (shipId, { kind, streamId, payload }) => {
      if (kind === 'live') ages.get(shipId)?.onShore(streamId, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength), epochNow());
    });
  }

  const shapers: LinkShaper[] = [];
  const shaperOf = new Map<string, LinkShaper>();
  const agents: ShipAgent[] = [];
  for (const ship of ships) {
    let shoreUrl = `ws://127.0.0.1:${port}`;
    let linkType: LinkType = 'FOURTHG';
    if (ship.profile !== 'none') {
      const profile = PROFILES[ship.profile];
      const shaper = new LinkShaper({
        target: { host: '127.0.0.1', port },
        profile,
        loss: process.env.LIVE_BENCH_LOSS !== 'off',
        random: seededRandom(1000 + ships.indexOf(ship)),
      });
      await shaper.listen();
      shapers.push(shaper);
      shaperOf.set(ship.shipId, shaper);
      shoreUrl = `ws://127.0.0.1:${shaper.port}`;
      linkType = profile.linkType;
    }
    const report: LinkReport = { linkType, quality: 90, duplex: 'BOTH' };
    const key = await app.agentKeys.issue(ship.shipId);
    let source = 'synthetic';
    if (rtsp) {
      // A real RTSP camera (bench-camera.ts: the synthetic picture, x264 in two slices, Debian's
      // GStreamer RTSP server), read through the agent's camera session: glass to glass includes the RTSP hop.
      const camera = startBenchCamera({
        name: `${ship.shipId} ${ship.profile}`,
        port: Number(process.env.RTSP_BASE_PORT ?? 18556) + ships.indexOf(ship),
        feed: cameraFeed,
        ...(cameraFps ? { encode: { ...BENCH_CAMERA_ENCODE, frameRate: cameraFps } } : {}),
      });
      cameraProcs.push(...camera.procs);
      await camera.ready;
      source = camera.url;
      cameras[ship.shipId] = camera.url;
    }
    const agent = new ShipAgent(
      { shoreUrl, shipId: ship.shipId, key, cameras: [{ cameraId: ship.cameraId, source, name: `${ship.shipId} ${ship.profile}` }] },
      { current: () => report, onChange: () => () => undefined },
      { cameraKinds: [syntheticCameras()], minBackoffMs: 200, maxBackoffMs: 1_000, streams: { output } },
    );
    // The agent hands live.start to its streams, which spawn ffmpeg at once: trace around it.
    const handle = agent.streams.handle.bind(agent.streams);
    agent.streams.handle = (msg) => {
      if (msg.type !== 'live.start') return handle(msg);
      const shoreSent = startSent.get(msg.streamId);
      startSent.delete(msg.streamId);
      const trace: RigTrace & { streamId: number } = { streamId: msg.streamId, agentStart: epochNow(), ...(shoreSent !== undefined ? { shoreSent } : {}) };
      traces.set(ship.shipId, trace);
      if (shaped.has(ship.shipId)) splitters.set(ship.shipId, { splitter: new RelaySplitter(), timescale: 0 });
      handle(msg);
      trace.agentSpawned = epochNow();
    };
    agent.start();
    const probe = ages.get(ship.shipId);
    if (probe) agent.sessions.get(source).subscribe((e) => probe.onSession(e));
    agents.push(agent);
  }
  // Ready once shore has taken every ship's hello.
  const deadline = Date.now() + 30_000;
  while (!ships.every((s) => app.agents.get(s.shipId)?.ready)) {
    if (Date.now() > deadline) throw new Error('the ship agents did not come online within 30 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  const token = await signIn(app);

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      loop.disable();
      for (const probe of ages.values()) {
        console.error(probe.report());
        probe.stop();
      }
      await Promise.allSettled(agents.map((a) => a.stop()));
      for (const p of cameraProcs) p.kill('SIGTERM');
      await app.close().catch(() => undefined);
      await Promise.allSettled(shapers.map((s) => s.close()));
      await database.close().catch(() => undefined);
    })());
  const exit = (code: number) => {
    const hard = setTimeout(() => process.exit(code), 5_000);
    hard.unref();
    void stop().finally(() => process.exit(code));
  };
  // Bounded: never outlive the benchmark, nor run for ever.
  process.on('disconnect', () => exit(0));
  process.on('SIGTERM', () => exit(0));
  process.on('SIGINT', () => exit(0));
  setTimeout(() => {
    console.error(`[rig] still running after ${maxSeconds} s: stopping`);
    exit(1);
  }, maxSeconds * 1000).unref();

  process.on('message', (raw) => {
    const req = raw as RigRequest;
    const answer = async (): Promise<unknown> => {
      switch (req.cmd) {
        case 'usage': {
          if (req.gc) (globalThis as { gc?: () => void }).gc?.();
          const m = process.memoryUsage();
          const u: RigUsage = {
            at: epochNow(),
            cpu: process.cpuUsage(),
            mem: { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers },
            loop: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
          };
          loop.reset();
          return u;
        }
        case 'streams': {
          const s: RigStreams = {
            live: app.live.activeStreams(),
            agents: Object.fromEntries(agents.map((a) => [a.config.shipId, a.streams.activeStreamIds.length])),
            uplinkBacklog: Object.fromEntries(
              ships.map((sh) => {
                const st = shaperOf.get(sh.shipId)?.stats('up');
                return [sh.shipId, st ? st.queuedBytes + st.inFlightBytes : 0];
              }),
            ),
            fragmentsAtShore: Object.fromEntries(ships.map((sh) => [sh.shipId, fragmentsAtShore.get(sh.shipId) ?? 0])),
            linkLoss: Object.fromEntries(
              [...shaperOf].map(([shipId, shaper]) => [shipId, { up: lossOf(shaper.stats('up')), down: lossOf(shaper.stats('down')) }]),
            ),
          };
          return s;
        }
        case 'trace': {
          const { streamId: _, ...t } = traces.get(req.shipId) ?? { streamId: 0 };
          return t satisfies RigTrace;
        }
        case 'metrics':
          return (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } })).body;
        case 'stop':
          await stop();
          setTimeout(() => process.exit(0), 50);
          return null;
      }
    };
    answer().then(
      (data) => send({ id: req.id, ok: true, data }),
      (err: unknown) => send({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  });

  send({ type: 'ready', port, token, ships, cameras, startupMs: Math.round(performance.now() - t0) });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error('[rig] failed:', err);
    process.exit(1);
  });
}
