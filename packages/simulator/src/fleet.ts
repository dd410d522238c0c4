import { dirname, join } from 'node:path';
import type { LinkReport } from '@ship-cctv/protocol';
import { type LinkStatusSource, ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras } from './camera/synthetic-camera.ts';
import { type FleetFile, readFleetFile } from './fleet-file.ts';
import { LinkSchedule, LinkShaper, demoScheduleFor, type LinkScheduleSpec } from './link/index.ts';

/** How often a ship's modem reading (signal quality) is sampled and reported when it moved. */
const QUALITY_EVERY_MS = 20_000;
const QUALITY_STEP = 5;

export interface SimulatedShip {
  shipId: string;
  agent: ShipAgent;
  shaper: LinkShaper;
  schedule: LinkSchedule;
}

/** The link source of a simulated ship: the schedule's link type and a sampled signal quality. */
function scheduleLinkSource(schedule: LinkSchedule): LinkStatusSource & { stop(): void } {
  const listeners = new Set<(r: LinkReport) => void>();
  const read = (): LinkReport => ({
    linkType: schedule.state.linkType,
    quality: Math.max(0, Math.min(100, Math.round(schedule.quality()))),
    duplex: 'BOTH',
  });
  let last = read();
  const emit = (r: LinkReport) => {
    last = r;
    for (const l of listeners) l(r);
  };
  schedule.on('change', () => emit(read()));
  const timer = setInterval(() => {
    const r = read();
    if (r.linkType !== last.linkType || Math.abs(r.quality - last.quality) >= QUALITY_STEP) emit(r);
  }, QUALITY_EVERY_MS);
  timer.unref();
  return {
    current: () => last,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: () => clearInterval(timer),
  };
}

export interface FleetOptions {
  /** Each ship's recorder keeps its data in `<dataDir>/<shipId>` (absent: in memory only). */
  dataDir?: string;
  /**
   * Ships whose link stays in the first phase of their schedule (the browser tests hold the ship
   * most of them watch, so ~70 s of its live video never meets a scheduled outage; the other
   * ships follow their schedules).
   */
  steadyShips?: ReadonlySet<string>;
  /** Packet loss on the ships' links as their profiles say (default true; false: loss-free links). */
  linkLoss?: boolean;
  /**
   * How many cameras of the fleet have walkers and boats in their picture and are analysed for
   * events by their ship's agent: the first camera that is not PTZ of each of the first ships.
   * Default 0 (none).
   */
  eventCameras?: number;
}

/**
 * The link schedule of the fleet's ship number `index`: the demo's, or — `steady` — its first link
 * for good: no other phase, and none of its random outages (what the browser tests watch).
 */
export function fleetLinkSchedule(index: number, steady: boolean): LinkScheduleSpec {
  const scheduled = demoScheduleFor(index);
  const first = scheduled.phases[0];
  if (!steady || !first) return scheduled;
  return { ...scheduled, phases: [{ ...first, outages: { windows: [] } }], startOffsetMs: 0 };
}

/**
 * Runs every ship of a fleet file as a real agent, each behind its own emulated satellite link
 * (a shaping TCP proxy between the agent and shore) whose profile changes over time. Every ship
 * records its cameras (synthetic ones cost nothing until played back), so playback works at once.
 */
export async function startFleet(fleet: FleetFile, opts: FleetOptions = {}): Promise<{ ships: SimulatedShip[]; stop(): Promise<void> }> {
  const shore = new URL(fleet.shoreUrl);
  const target = { host: shore.hostname, port: Number(shore.port || (shore.protocol === 'wss:' ? 443 : 80)) };
  const ships: SimulatedShip[] = [];
  const stops: (() => void)[] = [];
  const eventCameras = eventCamerasOf(fleet, opts.eventCameras ?? 0);
  for (const [i, s] of fleet.ships.entries()) {
    const analysed = s.cameras.filter((c) => eventCameras.has(c.cameraId));
    const spec = fleetLinkSchedule(i, opts.steadyShips?.has(s.shipId) ?? false);
    const probe = new LinkSchedule(spec);
    const shaper = new LinkShaper({ target, profile: probe.state.profile, loss: opts.linkLoss ?? true });
    await shaper.listen();
    const schedule = new LinkSchedule({ ...spec, target: shaper });
    const link = scheduleLinkSource(schedule);
    stops.push(() => link.stop());
    const agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: s.shipId, key: s.key, cameras: s.cameras },
      link,
      {
        minBackoffMs: 1_000,
        maxBackoffMs: 15_000,
        cameraKinds: [syntheticCameras({ actors: eventCameras })],
        recorder: opts.dataDir ? { dataDir: join(opts.dataDir, s.shipId.replace(/[^\w.-]/g, '_')) } : {},
        ...(analysed.length > 0 ? { events: { analysed: (cameraId: string) => eventCameras.has(cameraId) } } : {}),
      },
    );
    schedule.start();
    agent.start();
    ships.push({ shipId: s.shipId, agent, shaper, schedule });
  }
  return {
    ships,
    async stop() {
      for (const stop of stops) stop();
      await Promise.all(
        ships.map(async (s) => {
          s.schedule.stop();
          await s.agent.stop();
          await s.shaper.close();
        }),
      );
    },
  };
}

/** The first camera that is not PTZ (and is synthetic) of each of the first `count` ships that have one. */
export function eventCamerasOf(fleet: FleetFile, count: number): Set<string> {
  const ids = new Set<string>();
  for (const ship of fleet.ships) {
    if (ids.size >= count) break;
    const camera = ship.cameras.find((c) => !c.ptz && c.source === 'synthetic');
    if (camera) ids.add(camera.cameraId);
  }
  return ids;
}

/** The fleet with its first ship's first camera read from `url` (unchanged without a url). */
export function withRtspCamera(fleet: FleetFile, url: string | undefined): FleetFile {
  const [first, ...rest] = fleet.ships;
  const [camera, ...others] = first?.cameras ?? [];
  if (!url || !first || !camera) return fleet;
  return { ...fleet, ships: [{ ...first, cameras: [{ ...camera, source: url }, ...others] }, ...rest] };
}

async function main(): Promise<void> {
  const path = process.argv[2] ?? process.env.FLEET_FILE;
  if (!path) {
    console.error('usage: fleet.ts <fleet.json>   (or FLEET_FILE=<file>)');
    process.exit(2);
  }
  const dataDir = process.env.FLEET_DATA_DIR ?? join(dirname(path), 'fleet-recordings');
  // `npm run demo -- --rtsp`: the first ship's first camera is a real RTSP camera.
  const rtsp = process.env.FLEET_RTSP_CAMERA;
  // FLEET_STEADY_SHIPS=S1001,…: these ships' links stay in their first phase, without outages (the browser tests).
  const steadyShips = new Set((process.env.FLEET_STEADY_SHIPS ?? '').split(',').map((id) => id.trim()).filter(Boolean));
  // FLEET_LINK_LOSS=off: the ships' links lose no packets (default: each profile's loss).
  const linkLoss = process.env.FLEET_LINK_LOSS !== 'off';
  // FLEET_EVENTS=N: N cameras (one per ship) have walkers and boats and are analysed for events; 0: none.
  const eventCameras = Math.max(0, Number(process.env.FLEET_EVENTS ?? 2) || 0);
  const fleet = await startFleet(withRtspCamera(readFleetFile(path), rtsp), { dataDir, steadyShips, linkLoss, eventCameras });
  if (eventCameras > 0) console.log(`[fleet] events: ${[...eventCamerasOf(readFleetFile(path), eventCameras)].join(', ')} show people and boats and are analysed (FLEET_EVENTS=${eventCameras})`);
  if (!linkLoss) console.log('[fleet] packet loss off on every link (FLEET_LINK_LOSS=off)');
  if (steadyShips.size > 0) console.log(`[fleet] steady links (no schedule): ${[...steadyShips].join(', ')}`);
  if (rtsp) console.log(`[fleet] ${fleet.ships[0]?.shipId ?? '(no ship)'} watches a real RTSP camera: ${rtsp}`);
  for (const s of fleet.ships) {
    s.agent.on('connected', () => console.log(`[fleet] ${s.shipId} connected over ${s.schedule.state.linkType}`));
    s.agent.on('disconnected', (reason) => console.log(`[fleet] ${s.shipId} link lost (${reason})`));
    s.agent.on('rejected', (status) => console.error(`[fleet] ${s.shipId} refused by shore (HTTP ${status})`));
    s.agent.on('refused', (code, message) => console.error(`[fleet] ${s.shipId} refused by shore: ${code}: ${message}`));
    s.agent.on('dropped', (reason) => console.error(`[fleet] ${s.shipId} dropped a message from shore: ${reason}`));
    s.agent.on('warning', (message) => console.error(`[fleet] ${s.shipId} ${message}`));
    s.schedule.on('change', (_p, state) => console.log(`[fleet] ${s.shipId} link now ${state.linkType}${state.label ? ` (${state.label})` : ''}`));
  }
  console.log(`[fleet] ${fleet.ships.length} ships sailing (recordings under ${dataDir})`);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      void fleet.stop().then(() => process.exit(0));
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
