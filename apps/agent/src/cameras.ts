import { spawn } from 'node:child_process';

export interface CameraConfig {
  cameraId: string;
  /**
   * Any input URL ffmpeg opens (rtsp://, udp://, http://, a file): a URL camera (url-camera.ts).
   * Another kind of camera given to the agent (CameraKind) may take other values.
   */
  source: string;
  name?: string;
  /**
   * A PTZ camera: a URL camera is steered over ONVIF with `onvif`; `{}` makes a camera PTZ whose
   * kind steers itself (CameraKind.steersItself).
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
