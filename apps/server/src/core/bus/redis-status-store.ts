import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ShipState, StatusBackend, StatusEvent, StoredCameraState } from './status-store.ts';

/** Entries expire unless the instance holding the ship's agent refreshes them: a dead instance's ships read OFFLINE. */
const TTL_MS = 30_000;

/**
 * Status in Redis: one key per ship and per camera (JSON, with a TTL), and one pub/sub channel on
 * which every instance hears every status message and hands it to its own STOMP subscribers.
 */
export class RedisStatusBackend implements StatusBackend {
  private readonly cmd: Redis;
  private readonly sub: Redis;
  private readonly channel: string;
  private readonly handlers: ((event: StatusEvent) => void)[] = [];
  /** Identifies this instance's own messages (not used to skip them: every instance delivers locally from the channel). */
  readonly instanceId = randomUUID();

  private constructor(
    url: string,
    private readonly prefix: string,
    onError: (err: Error) => void,
  ) {
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

  static async connect(url: string, prefix = 'shipcctv:', onError: (err: Error) => void = () => undefined): Promise<RedisStatusBackend> {
    const backend = new RedisStatusBackend(url, prefix, onError);
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
    await this.cmd.set(this.shipKey(shipId), JSON.stringify(state), 'PX', TTL_MS);
  }

  async getShips(shipIds: readonly string[]): Promise<Map<string, ShipState>> {
    return this.getMany<ShipState>(shipIds, (id) => this.shipKey(id));
  }

  async setCameras(cameras: readonly StoredCameraState[]): Promise<void> {
    if (cameras.length === 0) return;
    const pipeline = this.cmd.pipeline();
    for (const c of cameras) pipeline.set(this.cameraKey(c.cameraId), JSON.stringify(c), 'PX', TTL_MS);
    await pipeline.exec();
  }

  async getCameras(cameraIds: readonly string[]): Promise<Map<string, StoredCameraState>> {
    return this.getMany<StoredCameraState>(cameraIds, (id) => this.cameraKey(id));
  }

  async rewrite(ships: readonly (readonly [string, ShipState])[], cameras: readonly StoredCameraState[]): Promise<void> {
    if (ships.length + cameras.length === 0) return;
    const pipeline = this.cmd.pipeline();
    for (const [id, state] of ships) pipeline.set(this.shipKey(id), JSON.stringify(state), 'PX', TTL_MS);
    for (const c of cameras) pipeline.set(this.cameraKey(c.cameraId), JSON.stringify(c), 'PX', TTL_MS);
    await pipeline.exec();
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

  private async getMany<T>(ids: readonly string[], key: (id: string) => string): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    if (ids.length === 0) return out;
    const values = await this.cmd.mget(...ids.map(key));
    values.forEach((v, i) => {
      const id = ids[i];
      if (v && id !== undefined) out.set(id, JSON.parse(v) as T);
    });
    return out;
  }
}
