import type { PtzFailure, PtzPreset } from '@ship-cctv/protocol';

/**
 * What steers one PTZ camera: the agent's own is ONVIF (onvif-ptz.ts, a real camera); a camera
 * source may bring its own (the simulator's synthetic camera steers its drawn window).
 */
export interface PtzBackend {
  /** Moves at the speeds (−1…1) until the next command, or by itself stops after `timeoutMs`. */
  move(pan: number, tilt: number, zoom: number, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
  presets(): Promise<PtzPreset[]>;
  /** Keeps where the camera looks now as a preset (a new one, or `presetId` overwritten). */
  setPreset(name: string, presetId?: string): Promise<PtzPreset>;
  gotoPreset(presetId: string): Promise<void>;
  removePreset(presetId: string): Promise<void>;
  close(): void;
}

export class PtzError extends Error {
  constructor(
    readonly code: PtzFailure,
    message: string,
  ) {
    super(message);
  }
}
