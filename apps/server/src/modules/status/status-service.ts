import {
  type CameraState,
  type CameraStatusEntry,
  type LinkReport,
  type MediaListMessage,
  type RecorderStorage,
  type ShipStatusEntry,
  type ShipStatusMessage,
  cameraSource,
  dest,
} from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import type { ShipState, StatusBackend, StoredCameraState } from '../../core/bus/index.ts';
import { shipWithCameras } from './repo.ts';

interface ShipDirectoryEntry {
  id: string;
  name: string;
  cameras: Map<string, { channelId: string; instanceId: string }>;
}

const OFFLINE_SHIP: Omit<ShipState, 'updatedAt'> = { status: 'OFFLINE', quality: -1, duplex: 'NONE', online: false };

/** Whether two states say the same to an operator (when they were written aside). */
function sameState(a: Omit<ShipState, 'updatedAt'>, b: Omit<ShipState, 'updatedAt'>): boolean {
  const storage = (s: Omit<ShipState, 'updatedAt'>) => JSON.stringify(s.storage ?? null);
  return a.status === b.status && a.quality === b.quality && a.duplex === b.duplex && a.online === b.online && storage(a) === storage(b);
}

export function shipStatusBody(state: Omit<ShipState, 'updatedAt'>): string {
  const msg: ShipStatusMessage = {
    status: state.status,
    quality: state.quality,
    udpConnectionStats: { duplex: state.duplex },
    // Only from agents that report it: the spec's three fields stay as they were for every other ship.
    ...(state.storage ? { storage: state.storage } : {}),
  };
  return JSON.stringify(msg);
}

export function cameraStatusBody(cameraId: string, c: Pick<CameraState, 'online' | 'recording' | 'recordingSince'>): string[] {
  const live: MediaListMessage = {
    sourceId: cameraId,
    status: c.online ? 'ONLINE' : 'OFFLINE',
    remoteRecord: null,
    remoteStart: null,
    remoteEnd: null,
    argId: null,
  };
  const record: MediaListMessage = {
    sourceId: cameraId,
    status: c.online ? 'ONLINE' : 'OFFLINE',
    remoteRecord: c.recording,
    remoteStart: c.recording ? c.recordingSince : null,
    remoteEnd: null,
    argId: null,
    recorder: 'ship',
  };
  return [JSON.stringify(live), JSON.stringify(record)];
}

/**
 * Live link and camera status of the fleet, as the agents report it. Every change is stored in
 * the backend and published as the spec's STOMP messages: /shipStatus/{shipName} and
 * /mediaList/{clientInstanceId}. A report that changes nothing (an agent's periodic link report
 * on a steady link) is neither stored nor published: an idle ship costs the shared store nothing.
 */
export class StatusService {
  private readonly directory = new Map<string, ShipDirectoryEntry>();
  /** Ships whose agent is connected to this instance. */
  private readonly local = new Set<string>();

  /** What this instance last wrote for each ship whose agent it holds, written again when the shared store lost it (rewriteLocal). */
  private readonly written = new Map<string, { ship?: ShipState; cameras: Map<string, StoredCameraState> }>();

  constructor(
    private readonly db: Db,
    private readonly backend: StatusBackend,
  ) {}

  private readonly linkListeners = new Set<(shipId: string, up: boolean, cameras: readonly CameraState[]) => void>();

  /**
   * Told when the link of a ship comes to this instance (with the cameras' state in its hello) or
   * leaves it. Returns the unsubscribe.
   */
  onLink(listener: (shipId: string, up: boolean, cameras: readonly CameraState[]) => void): () => void {
    this.linkListeners.add(listener);
    return () => this.linkListeners.delete(listener);
  }

  async agentOnline(shipId: string, link: LinkReport, cameras: readonly CameraState[], storage?: RecorderStorage): Promise<void> {
    const ship = await this.loadShip(shipId, true);
    if (!ship) return;
    for (const listener of this.linkListeners) listener(shipId, true, cameras);
    this.local.add(shipId);
    await this.setShip(ship, { status: link.linkType, quality: link.quality, duplex: link.duplex, online: true, ...(storage ? { storage } : {}) });
    await this.setCameras(ship, cameras);
  }

  /**
   * A link report. What the ship's recorder can keep comes in the hello and in a report only when it
   * changed: a report without it keeps the figures last heard.
   */
  async linkReport(shipId: string, link: LinkReport, reported?: RecorderStorage): Promise<void> {
    const ship = await this.loadShip(shipId);
    if (!ship) return;
    const last = this.written.get(shipId)?.ship;
    const storage = reported ?? last?.storage;
    const state = { status: link.linkType, quality: link.quality, duplex: link.duplex, online: true, ...(storage ? { storage } : {}) };
    if (last && sameState(last, state)) return;
    await this.setShip(ship, state);
  }

  private readonly cameraListeners = new Set<(shipId: string, camera: CameraState) => void>();

  /** Told of each camera report of a ship whose link is on this instance, before it is stored. Returns the unsubscribe. */
  onCameraReport(listener: (shipId: string, camera: CameraState) => void): () => void {
    this.cameraListeners.add(listener);
    return () => this.cameraListeners.delete(listener);
  }

  async cameraReport(shipId: string, camera: CameraState): Promise<void> {
    for (const listener of this.cameraListeners) listener(shipId, camera);
    const ship = await this.loadShip(shipId);
    if (!ship) return;
    await this.setCameras(ship, [camera]);
  }

  async agentOffline(shipId: string): Promise<void> {
    for (const listener of this.linkListeners) listener(shipId, false, []);
    this.local.delete(shipId);
    this.written.delete(shipId);
    const ship = await this.loadShip(shipId);
    if (!ship) return;
    await this.setShip(ship, OFFLINE_SHIP);
    await this.setCameras(
      ship,
      [...ship.cameras.keys()].map((cameraId) => ({ cameraId, online: false, recording: false, recordingSince: null })),
    );
  }

  /** The ship's link here closed because another instance holds it now: that instance writes its state from now on. */
  agentMoved(shipId: string): void {
    this.local.delete(shipId);
    this.written.delete(shipId);
  }

  async shipStatuses(ships: readonly { id: string; name: string }[]): Promise<ShipStatusEntry[]> {
    const states = await this.backend.getShips(ships.map((s) => s.id));
    return ships.map((s) => {
      const st = states.get(s.id);
      return {
        shipId: s.id,
        shipName: s.name,
        status: st?.status ?? OFFLINE_SHIP.status,
        quality: st?.quality ?? OFFLINE_SHIP.quality,
        duplex: st?.duplex ?? OFFLINE_SHIP.duplex,
        online: st?.online ?? false,
        updatedAt: st?.updatedAt ?? null,
        ...(st?.storage ? { storage: st.storage } : {}),
      };
    });
  }

  async cameraStatuses(shipId: string): Promise<CameraStatusEntry[]> {
    const ship = await this.loadShip(shipId);
    if (!ship) return [];
    const states = await this.backend.getCameras([...ship.cameras.keys()]);
    return [...ship.cameras].map(([cameraId, c]) => {
      const st = states.get(cameraId);
      return {
        cameraId,
        channelId: c.channelId,
        shipId,
        instanceId: c.instanceId,
        online: st?.online ?? false,
        recording: st?.recording ?? false,
        recordingSince: st?.recordingSince ?? null,
      };
    });
  }

  /** Current state of the ships a destination speaks of, as the messages a new subscriber gets first. */
  async snapshot(destination: string, ships: readonly { id: string; name: string }[]): Promise<string[]> {
    if (destination.startsWith('/shipStatus/')) {
      const entries = await this.shipStatuses(ships);
      return entries.map((e) => shipStatusBody({ status: e.status, quality: e.quality, duplex: e.duplex as ShipState['duplex'], online: e.online, ...(e.storage ? { storage: e.storage } : {}) }));
    }
    // Pictures on their way are events, not state: a new subscriber gets nothing first.
    if (!destination.startsWith('/mediaList/')) return [];
    const out: string[] = [];
    for (const s of ships) {
      for (const c of await this.cameraStatuses(s.id)) {
        if (dest.mediaList(c.instanceId) === destination) out.push(...cameraStatusBody(c.cameraId, c));
      }
    }
    return out;
  }

  /** Nothing to stop: the bus closes the store. */
  close(): void {}

  private async setShip(ship: ShipDirectoryEntry, state: Omit<ShipState, 'updatedAt'>): Promise<void> {
    const stored: ShipState = { ...state, updatedAt: Date.now() };
    const w = this.remember(ship.id);
    if (w) w.ship = stored;
    await this.backend.setShip(ship.id, stored);
    await this.backend.publish({ destination: dest.shipStatus(ship.name), body: shipStatusBody(state) });
  }

  private async setCameras(ship: ShipDirectoryEntry, cameras: readonly CameraState[]): Promise<void> {
    const known = cameras.filter((c) => ship.cameras.has(c.cameraId));
    const stored: StoredCameraState[] = known.map((c) => ({ ...c, shipId: ship.id }));
    const w = this.remember(ship.id);
    for (const c of stored) w?.cameras.set(c.cameraId, c);
    await this.backend.setCameras(stored);
    for (const c of known) {
      const instanceId = ship.cameras.get(c.cameraId)?.instanceId ?? ship.name;
      for (const body of cameraStatusBody(c.cameraId, c)) {
        await this.backend.publish({ destination: dest.mediaList(instanceId), body });
      }
    }
  }

  /**
   * Writes again the state of every ship whose agent this instance holds — after this instance's
   * lease lapsed and was set again (a long Redis stall, or Redis restarted without its data).
   */
  async rewriteLocal(): Promise<void> {
    const ships: [string, ShipState][] = [];
    const cameras: StoredCameraState[] = [];
    for (const [id, w] of this.written) {
      if (!this.local.has(id)) continue;
      if (w.ship) ships.push([id, w.ship]);
      cameras.push(...w.cameras.values());
    }
    await this.backend.rewrite(ships, cameras).catch(() => undefined);
  }

  private remember(shipId: string): { ship?: ShipState; cameras: Map<string, StoredCameraState> } | undefined {
    if (!this.local.has(shipId)) return undefined;
    let w = this.written.get(shipId);
    if (!w) {
      w = { cameras: new Map() };
      this.written.set(shipId, w);
    }
    return w;
  }

  /** The ship's name and cameras (with the instance each publishes under), cached; reloaded on reconnect. */
  private async loadShip(shipId: string, reload = false): Promise<ShipDirectoryEntry | undefined> {
    const cached = this.directory.get(shipId);
    if (cached && !reload) return cached;
    const rows = await shipWithCameras(this.db, shipId);
    const first = rows[0];
    if (!first) return undefined;
    const entry: ShipDirectoryEntry = { id: shipId, name: first.ship.name, cameras: new Map() };
    for (const r of rows) {
      if (!r.camera || !r.channelId) continue;
      entry.cameras.set(r.camera.id, {
        channelId: r.channelId,
        instanceId: cameraSource(r.camera.sourceType, r.camera.other, first.ship.name).instanceId,
      });
    }
    this.directory.set(shipId, entry);
    return entry;
  }
}
