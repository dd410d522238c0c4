import { spawn } from 'node:child_process';
import type { CameraState } from '@ship-cctv/protocol';

export interface CameraConfig {
  cameraId: string;
  /** "synthetic" for the built-in synthetic camera, or any input URL ffmpeg opens (rtsp://, udp://, http://, a file). */
  source: string;
  name?: string;
  /**
   * A PTZ camera. On the synthetic camera `{}` makes it one (a window onto a larger drawn scene);
   * a real camera is steered over ONVIF with `onvif`.
   */
  ptz?: PtzCameraConfig;
}

/** How the agent reaches a real camera's ONVIF PTZ service. */
export interface OnvifSettings {
  hostname: string;
  /** Default 80. */
  port?: number;
  username?: string;
  password?: string;
  /** The media profile to steer; default the camera's first profile with a PTZ configuration. */
  profileToken?: string;
}

export interface PtzCameraConfig {
  onvif?: OnvifSettings;
}

/** The synthetic camera's recorder can render any moment of this window (it is a function of time). */
export const SYNTHETIC_RETENTION_MS = 7 * 24 * 3_600_000;

export const isSynthetic = (c: CameraConfig) => c.source === 'synthetic';

/** A camera id as a directory name (recordings, pictures). */
export const cameraDirName = (cameraId: string) => cameraId.replace(/[^\w.-]/g, '_');

/**
 * Checks that a camera URL answers, with ffprobe (Debian's ffmpeg package) and a time limit.
 * Resolves true when ffprobe finds a video stream.
 */
export function probeCamera(url: string, timeoutMs = 10_000): Promise<boolean> {
  return new Promise((resolve) => {
    const args = ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0'];
    if (url.startsWith('rtsp://')) args.push('-rtsp_transport', 'tcp');
    args.push('-i', url);
    let out = '';
    let settled = false;
    const child = spawn('ffprobe', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(false);
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', () => finish(false));
    child.on('close', (code) => finish(code === 0 && out.trim().length > 0));
  });
}

/** Initial state of a camera before any probe: synthetic cameras are always up and always "recording". */
export function initialCameraState(c: CameraConfig, now: number): CameraState {
  if (isSynthetic(c)) return { cameraId: c.cameraId, online: true, recording: true, recordingSince: now - SYNTHETIC_RETENTION_MS };
  return { cameraId: c.cameraId, online: false, recording: false, recordingSince: null };
}
