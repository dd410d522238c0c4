import type { CameraState, Duplex, RecorderStorage } from '@ship-cctv/protocol';

export interface ShipState {
  status: string;
  quality: number;
  duplex: Duplex;
  online: boolean;
  updatedAt: number;
  /** What the ship's recorder can keep, as its agent last reported it (absent: not reported). */
  storage?: RecorderStorage;
}

export interface StoredCameraState extends CameraState {
  shipId: string;
}

export interface StatusEvent {
  destination: string;
  body: string;
}

/**
 * Where live status is kept and how it is fanned out. In one process: memory. With REDIS_URL:
 * Redis, so a status reported to one server instance reaches STOMP subscribers on every instance.
 */
export interface StatusBackend {
  setShip(shipId: string, state: ShipState): Promise<void>;
  getShips(shipIds: readonly string[]): Promise<Map<string, ShipState>>;
  setCameras(cameras: readonly StoredCameraState[]): Promise<void>;
  getCameras(cameraIds: readonly string[]): Promise<Map<string, StoredCameraState>>;
  /**
   * Writes again the state of ships connected to this instance (Redis: value and expiry, so state a
   * Redis restart lost comes back within one refresh) — a no-op in memory.
   */
  rewrite(ships: readonly (readonly [string, ShipState])[], cameras: readonly StoredCameraState[]): Promise<void>;
  /** Delivers to every instance's subscribers, this one included. */
  publish(event: StatusEvent): Promise<void>;
  onEvent(handler: (event: StatusEvent) => void): void;
  /** Whether the shared store answers now (readiness); a store in this process always does. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class MemoryStatusBackend implements StatusBackend {
  private readonly ships = new Map<string, ShipState>();
  private readonly cameras = new Map<string, StoredCameraState>();
  private readonly handlers: ((event: StatusEvent) => void)[] = [];

  async setShip(shipId: string, state: ShipState): Promise<void> {
    this.ships.set(shipId, state);
  }
  async getShips(shipIds: readonly string[]): Promise<Map<string, ShipState>> {
    const out = new Map<string, ShipState>();
    for (const id of shipIds) {
      const s = this.ships.get(id);
      if (s) out.set(id, s);
    }
    return out;
  }
  async setCameras(cameras: readonly StoredCameraState[]): Promise<void> {
    for (const c of cameras) this.cameras.set(c.cameraId, c);
  }
  async getCameras(cameraIds: readonly string[]): Promise<Map<string, StoredCameraState>> {
    const out = new Map<string, StoredCameraState>();
    for (const id of cameraIds) {
      const c = this.cameras.get(id);
      if (c) out.set(id, c);
    }
    return out;
  }
  async rewrite(): Promise<void> {}
  async ping(): Promise<boolean> {
    return true;
  }
  async publish(event: StatusEvent): Promise<void> {
    for (const h of this.handlers) h(event);
  }
  onEvent(handler: (event: StatusEvent) => void): void {
    this.handlers.push(handler);
  }
  async close(): Promise<void> {}
}
