import type { CameraContext, CameraKind, CameraSource } from './camera-source.ts';
import type { CameraConfig } from './cameras.ts';
import type { CameraSessions } from './media/camera-session.ts';
import { type UrlCameraOptions, urlCameras } from './url-camera.ts';

export interface CameraSourcesOptions {
  /** Kinds of camera besides the URL camera, asked in order before it (the simulator's synthetic camera is one). */
  kinds?: readonly CameraKind[];
  /** Options of the URL cameras. */
  url?: UrlCameraOptions;
  /** The agent's camera sessions; absent: every user of a URL camera opens it itself. */
  sessions?: CameraSessions;
  /** The agent's data directory. */
  dataDir?: string;
  now?: () => number;
}

/** The kind that reads a camera: the first of `kinds` that takes its `source`, else the URL camera. */
export function kindOf(source: string, kinds: readonly CameraKind[] = []): CameraKind | undefined {
  return kinds.find((k) => k.takes(source));
}

/** The ship's cameras, each read by the source of its kind, by camera id. */
export class CameraSources {
  private readonly byId = new Map<string, CameraSource>();

  constructor(
    readonly configs: readonly CameraConfig[],
    opts: CameraSourcesOptions = {},
  ) {
    const ctx: CameraContext = { dataDir: opts.dataDir, sessions: opts.sessions, now: opts.now ?? Date.now };
    const url = urlCameras(opts.url);
    for (const c of configs) this.byId.set(c.cameraId, (kindOf(c.source, opts.kinds) ?? url).create(c, ctx));
  }

  get(cameraId: string): CameraSource | undefined {
    return this.byId.get(cameraId);
  }

  has(cameraId: string): boolean {
    return this.byId.has(cameraId);
  }

  get ids(): Set<string> {
    return new Set(this.byId.keys());
  }

  [Symbol.iterator](): IterableIterator<CameraSource> {
    return this.byId.values();
  }
}
