import { createServer } from 'node:net';
import type { PtzPreset } from '@ship-cctv/protocol';
import { type PtzBackend, PtzError } from '@ship-cctv/agent';
import { PTZ_CROP_TARGET, type PtzStage } from '../camera/synthetic-picture.ts';
import { PresetStore } from './preset-store.ts';
import { type Crop, HOME, type PtzMotion, type PtzPosition, SCENE_SCALE, cropExpressions, cropFor, isMoving, positionAt, still } from './scene-window.ts';
import { ZmtpReqClient } from './zmtp-client.ts';

/** How often a zooming window's size is sent to running streams (crop takes w/h only as commands). */
const ZOOM_TICK_MS = 100;
/** How long a stream's zmq socket is waited for after ffmpeg starts. */
const CONNECT_WITHIN_MS = 10_000;

/** A free TCP port on 127.0.0.1 (for one ffmpeg's zmq filter). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One running ffmpeg drawing this camera: its size and its zmq command socket. */
class LiveWindow {
  private client: ZmtpReqClient | undefined;
  private closed = false;
  /** The w/h the running crop has (a command re-configures crop; sent only when they change). */
  private size: { w: number; h: number };
  private sending: Promise<unknown> = Promise.resolve();

  constructor(
    readonly width: number,
    readonly height: number,
    readonly port: number,
    initial: { w: number; h: number },
    private readonly current: () => PtzMotion,
  ) {
    this.size = initial;
  }

  /** ffmpeg was started: connect to its zmq filter (it binds as the graph starts) and bring it up to date. */
  async attach(): Promise<void> {
    const until = Date.now() + CONNECT_WITHIN_MS;
    while (!this.closed && Date.now() < until) {
      const client = ZmtpReqClient.connect('127.0.0.1', this.port);
      try {
        await client.ready;
        if (this.closed) return client.close();
        this.client = client;
        this.update();
        return;
      } catch {
        client.close();
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Sends the crop of the current motion: w/h when they changed, then x and y. */
  update(now = Date.now()): void {
    const client = this.client;
    if (!client || client.closed) return;
    const c = cropExpressions(this.current(), this.width, this.height, now);
    const commands: string[] = [];
    if (c.w !== this.size.w || c.h !== this.size.h) {
      commands.push(`${PTZ_CROP_TARGET} w ${c.w}`, `${PTZ_CROP_TARGET} h ${c.h}`);
      this.size = { w: c.w, h: c.h };
    }
    commands.push(`${PTZ_CROP_TARGET} x ${c.x}`, `${PTZ_CROP_TARGET} y ${c.y}`);
    this.sending = Promise.all(commands.map((cmd) => client.request(cmd))).catch(() => undefined);
  }

  /** Resolves when the commands sent so far were answered. */
  settled(): Promise<unknown> {
    return this.sending;
  }

  close(): void {
    this.closed = true;
    this.client?.close();
  }
}

export interface SyntheticPtzOptions {
  /** The presets' file (`<dataDir>/ptz/<camera>.json`); absent: kept in memory. */
  presetsFile?: string;
  now?: () => number;
}

/**
 * The synthetic camera as a PTZ camera: a window onto a larger drawn scene (scene-window.ts) that
 * pans, tilts and zooms with the commands. Every running stream of the camera (any definition)
 * follows live through its ffmpeg's zmq filter, and pictures of it are drawn with the window of
 * their moment. Presets are stored on the ship.
 */
export class SyntheticPtz implements PtzBackend {
  private motion: PtzMotion;
  private readonly windows = new Set<LiveWindow>();
  private readonly store: PresetStore;
  private zoomTimer: NodeJS.Timeout | undefined;
  private stopTimer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(opts: SyntheticPtzOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.store = new PresetStore(opts.presetsFile);
    this.motion = still(this.now(), HOME);
  }

  /** Where the window is now. */
  position(at = this.now()): PtzPosition {
    return positionAt(this.motion, at);
  }

  /** The crop of a picture of this size at `at` (a picture or a still). */
  cropAt(width: number, height: number, at = this.now()): Crop {
    return cropFor(this.position(at), width, height);
  }

  /** The stage of a still picture (no zmq: nothing steers it after). */
  stillStage(width: number, height: number, at = this.now()): PtzStage {
    const c = this.cropAt(width, height, at);
    return { sceneScale: SCENE_SCALE, crop: { w: c.w, h: c.h, x: String(c.x), y: String(c.y) } };
  }

  /**
   * A live stream's stage: a zmq port of its own and the crop of the current motion. Call
   * `attach()` once ffmpeg started, `close()` when it ended.
   */
  async openLive(width: number, height: number): Promise<{ stage: PtzStage; attach(): Promise<void>; close(): void; settled(): Promise<unknown> }> {
    const port = await freePort();
    const c = cropExpressions(this.motion, width, height, this.now());
    const window = new LiveWindow(width, height, port, { w: c.w, h: c.h }, () => this.motion);
    this.windows.add(window);
    return {
      stage: { sceneScale: SCENE_SCALE, crop: c, zmqPort: port },
      attach: () => window.attach(),
      close: () => {
        window.close();
        this.windows.delete(window);
      },
      settled: () => window.settled(),
    };
  }

  move(pan: number, tilt: number, zoom: number, timeoutMs: number): Promise<void> {
    const now = this.now();
    this.setMotion({ at: now, from: this.position(now), pan, tilt, zoomSpeed: zoom, until: now + timeoutMs });
    return Promise.resolve();
  }

  stop(): Promise<void> {
    this.setMotion(still(this.now(), this.position()));
    return Promise.resolve();
  }

  presets(): Promise<PtzPreset[]> {
    return Promise.resolve(this.store.list());
  }

  setPreset(name: string, presetId?: string): Promise<PtzPreset> {
    try {
      return Promise.resolve(this.store.set(name, this.position(), presetId));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  gotoPreset(presetId: string): Promise<void> {
    const preset = this.store.get(presetId);
    if (!preset) return Promise.reject(new PtzError('notFound', `no preset ${presetId}`));
    this.setMotion(still(this.now(), preset.position));
    return Promise.resolve();
  }

  removePreset(presetId: string): Promise<void> {
    try {
      this.store.remove(presetId);
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  close(): void {
    clearInterval(this.zoomTimer);
    clearTimeout(this.stopTimer);
    for (const w of this.windows) w.close();
    this.windows.clear();
  }

  /** The last command wins: a new motion replaces the one running, from where the window is now. */
  private setMotion(m: PtzMotion): void {
    this.motion = m;
    clearInterval(this.zoomTimer);
    clearTimeout(this.stopTimer);
    this.zoomTimer = undefined;
    const now = this.now();
    if (isMoving(m, now)) {
      // Auto-stop: at `until` the motion stands where it got to (the expressions stop there too);
      // the window is settled to a still motion so later commands start from it.
      this.stopTimer = setTimeout(() => this.setMotion(still(m.until, positionAt(m, m.until))), m.until - now);
      this.stopTimer.unref();
      if (m.zoomSpeed !== 0) {
        this.zoomTimer = setInterval(() => this.broadcast(), ZOOM_TICK_MS);
        this.zoomTimer.unref();
      }
    }
    this.broadcast();
  }

  private broadcast(): void {
    const now = this.now();
    for (const w of this.windows) w.update(now);
  }
}
