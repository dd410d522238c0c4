import type { AgentPtzMessage } from '@ship-cctv/protocol';
import type { CameraSources } from '../camera-sources.ts';
import { PtzHandler } from './ptz-handler.ts';
import type { PtzBackend } from './ptz-backend.ts';

/**
 * The ship's PTZ cameras: the backend of every camera source that has one (ONVIF for a URL
 * camera with `ptz.onvif`, ptz/onvif-ptz.ts; a kind that steers itself brings its own) and the link
 * handler that steers them.
 */
export class ShipPtz {
  readonly drivers = new Map<string, PtzBackend>();

  constructor(private readonly sources: CameraSources) {
    for (const source of sources) if (source.ptz) this.drivers.set(source.camera.cameraId, source.ptz);
  }

  /** Whether any camera of the ship can be steered (then the agent handles kind `ptz`). */
  get any(): boolean {
    return this.drivers.size > 0;
  }

  handler(send: (msg: AgentPtzMessage) => void): PtzHandler {
    return new PtzHandler(this.drivers, (id) => this.sources.has(id), send);
  }

  close(): void {
    for (const d of this.drivers.values()) d.close();
  }
}
