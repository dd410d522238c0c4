import { join } from 'node:path';
import type { AgentPtzMessage } from '@ship-cctv/protocol';
import { type CameraConfig, type OnvifSettings, cameraDirName, isSynthetic } from '../cameras.ts';
import type { PtzStage } from '../media/ffmpeg-args.ts';
import { OnvifPtz } from './onvif-ptz.ts';
import { PtzHandler } from './ptz-handler.ts';
import type { PtzDriver } from './ptz-driver.ts';
import { SyntheticPtz } from './synthetic-ptz.ts';

export interface ShipPtzOptions {
  /** The agent's data directory: presets under `ptz/<camera>.json`. Absent: kept in memory. */
  dataDir?: string;
  /** Makes the driver of a real camera's `ptz.onvif`. Default: OnvifPtz (onvif-ptz.ts). */
  onvif?: (settings: OnvifSettings) => PtzDriver;
}

/**
 * The ship's PTZ cameras: a driver per camera whose config has `ptz` — the synthetic camera's own
 * window, or ONVIF for a real one — and the link handler that steers them. The live streams and
 * pictures of a synthetic PTZ camera ask it for their window (`synthetic`).
 */
export class ShipPtz {
  readonly drivers = new Map<string, PtzDriver>();
  private readonly syntheticCameras = new Map<string, SyntheticPtz>();

  constructor(
    private readonly cameras: readonly CameraConfig[],
    opts: ShipPtzOptions = {},
  ) {
    for (const c of cameras) {
      if (!c.ptz) continue;
      if (isSynthetic(c)) {
        const driver = new SyntheticPtz(opts.dataDir ? { presetsFile: join(opts.dataDir, 'ptz', `${cameraDirName(c.cameraId)}.json`) } : {});
        this.syntheticCameras.set(c.cameraId, driver);
        this.drivers.set(c.cameraId, driver);
      } else if (c.ptz.onvif) {
        this.drivers.set(c.cameraId, (opts.onvif ?? ((settings) => new OnvifPtz(settings)))(c.ptz.onvif));
      }
    }
  }

  /** Whether any camera of the ship can be steered (then the agent handles kind `ptz`). */
  get any(): boolean {
    return this.drivers.size > 0;
  }

  /** The synthetic PTZ camera of this id, if it is one. */
  synthetic(cameraId: string): SyntheticPtz | undefined {
    return this.syntheticCameras.get(cameraId);
  }

  /** A still picture's window of a synthetic PTZ camera at `at`. */
  stillStage(cameraId: string, width: number, height: number, at: number): PtzStage | undefined {
    return this.syntheticCameras.get(cameraId)?.stillStage(width, height, at);
  }

  handler(send: (msg: AgentPtzMessage) => void): PtzHandler {
    return new PtzHandler(this.drivers, (id) => this.cameras.some((c) => c.cameraId === id), send);
  }

  close(): void {
    for (const d of this.drivers.values()) d.close();
  }
}
