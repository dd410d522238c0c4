import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ShipState, StatusBackend, StatusEvent, StoredCameraState } from './status-store.ts';
import { instanceKeyPrefix } from './instance-lease.ts';

/** What is stored: the state, and the instance that wrote it (its lease says whether the entry still counts). */
type Stored<T> = T & { by?: string };

/**
 * Status in Redis: one key per ship and per camera (JSON naming the instance that wrote it), and
 * one pub/sub channel on which every instance hears every status message and hands it to its own
 * STOMP subscribers. Entries have no expiry and are not written again while nothing changes: an
 * entry counts while the instance that wrote it is alive (its lease key, instance-lease.ts,
 * exists), so a dead instance's ships read OFFLINE once its lease lapses, at the cost of one MGET
 * of the writers' leases per read rather than a write per ship every few seconds.
 */
export class RedisStatusBackend implements StatusBackend {
  private readonly cmd: Redis;
  private readonly sub: Redis;
  private readonly channel: string;
  private readonly handlers: ((event: StatusEvent) => void)[] = [];
  private readonly leasePrefix: string;

  private constructor(
    url: string,
    private readonly prefix: string,
    onError: (err: Error) => void,
    /** The instance whose lease keeps this instance's entries counting (the ownership's instance id). */
    readonly instanceId: string,
  ) {
    this.leasePrefix = instanceKeyPrefix(prefix);
    this.cmd = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    this.sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    // Without a listener ioredis prints every connection error to stderr as unhandled.
    this.cmd.on('error', onError);
    this.sub.on('error', onError);
    this.channel = `${prefix}status-events`;
  }

  /** Answers whether Redis answers a PING now (readiness). */
  async ping(): Promise<boolean> {
    try {
      return (await this.cmd.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  static async connect(url: string, prefix = 'shipcctv:', onError: (err: Error) => void = () => undefined, instanceId: string = randomUUID()): Promise<RedisStatusBackend> {
    const backend = new RedisStatusBackend(url, prefix, onError, instanceId);
    await backend.cmd.connect();
    await backend.sub.connect();
    await backend.sub.subscribe(backend.channel);
    backend.sub.on('message', (channel: string, message: string) => {
      if (channel !== backend.channel) return;
      let event: StatusEvent;
      try {
        event = JSON.parse(message) as StatusEvent;
      } catch {
        return;
      }
      if (typeof event.destination !== 'string' || typeof event.body !== 'string') return;
      for (const h of backend.handlers) h(event);
    });
    return backend;
  }

  private shipKey(id: string) {
    return `${this.prefix}ship:${id}`;
  }
  private cameraKey(id: string) {
    return `${this.prefix}camera:${id}`;
  }

  async setShip(shipId: string, state: ShipState): Promise<void> {
    await this.cmd.set(this.shipKey(shipId), this.stored(state));
  }

  async getShips(shipIds: readonly string[]): Promise<Map<string, ShipState>> {
    return this.getMany<ShipState>(shipIds, (id) => this.shipKey(id));
  }

  async setCameras(cameras: readonly StoredCameraState[]): Promise<void> {
    if (cameras.length === 0) return;
    await this.cmd.mset(cameras.flatMap((c) => [this.cameraKey(c.cameraId), this.stored(c)]));
  }

  async getCameras(cameraIds: readonly string[]): Promise<Map<string, StoredCameraState>> {
    return this.getMany<StoredCameraState>(cameraIds, (id) => this.cameraKey(id));
  }

  async rewrite(ships: readonly (readonly [string, ShipState])[], cameras: readonly StoredCameraState[]): Promise<void> {
    if (ships.length + cameras.length === 0) return;
    const entries = [...ships.flatMap(([id, state]) => [this.shipKey(id), this.stored(state)]), ...cameras.flatMap((c) => [this.cameraKey(c.cameraId), this.stored(c)])];
    // A few thousand keys a command: one large MSET would hold Redis up for everyone meanwhile.
    for (let i = 0; i < entries.length; i += 2_000) await this.cmd.mset(entries.slice(i, i + 2_000));
  }

  async publish(event: StatusEvent): Promise<void> {
    await this.cmd.publish(this.channel, JSON.stringify(event));
  }

  onEvent(handler: (event: StatusEvent) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.sub.disconnect();
    this.cmd.disconnect();
  }

  private stored(state: ShipState | StoredCameraState): string {
    return JSON.stringify({ ...state, by: this.instanceId });
  }

  private async getMany<T>(ids: readonly string[], key: (id: string) => string): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    if (ids.length === 0) return out;
    const values = await this.cmd.mget(...ids.map(key));
    const entries: [string, Stored<T>][] = [];
    values.forEach((v, i) => {
      const id = ids[i];
      if (v && id !== undefined) entries.push([id, JSON.parse(v) as Stored<T>]);
    });
    // Entries written by instances that are gone (their lease lapsed) no longer count.
    const writers = [...new Set(entries.map(([, e]) => e.by).filter((by): by is string => by !== undefined && by !== this.instanceId))];
    const alive = new Set<string>([this.instanceId]);
    if (writers.length > 0) {
      const leases = await this.cmd.mget(...writers.map((by) => this.leasePrefix + by));
      writers.forEach((by, i) => {
        if (leases[i] !== null) alive.add(by);
      });
    }
    for (const [id, { by, ...state }] of entries) {
      if (by === undefined || alive.has(by)) out.set(id, state as T);
    }
    return out;
  }
}
