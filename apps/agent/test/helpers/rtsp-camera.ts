/**
 * A real RTSP camera for tests: scripts/rtsp-camera.py (Debian's GStreamer RTSP server with x264 or
 * x265) on a port of 127.0.0.1. It counts the RTSP sessions clients hold, and restarts like a
 * camera that reboots (the process stopped and started again on the same port).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const SCRIPT = join(import.meta.dirname, '../../../../scripts/rtsp-camera.py');
/** Debian's Python: its GObject bindings (python3-gi) are where scripts/setup.mjs installs them. */
const PYTHON = '/usr/bin/python3';

export interface RtspCameraOptions {
  /** From the ports this suite may use. */
  port: number;
  codec?: 'h264' | 'h265' | 'mjpeg';
  slices?: number;
  width?: number;
  height?: number;
  fps?: number;
  bitrateKbps?: number;
  gopSeconds?: number;
  /** B-frames between references (H.264: main profile; H.265: x265 without zero latency). */
  bframes?: number;
  /** The camera asks for these (Digest unless `auth: 'basic'`); `url` carries them. */
  user?: string;
  password?: string;
  auth?: 'digest' | 'basic';
}

export interface RtspCamera {
  readonly url: string;
  /** RTSP sessions open at the camera now. */
  readonly openSessions: number;
  /** RTSP sessions ever opened (SETUP) since the camera (re)started. */
  readonly sessionsOpened: number;
  stop(): Promise<void>;
  /** Stops the camera, waits `downMs`, starts it again on the same port. */
  restart(downMs?: number): Promise<void>;
  /** Freezes the camera's process (SIGSTOP): its connections stay open and nothing comes, like a camera whose cable was pulled. */
  freeze(): void;
  /** Lets a frozen camera go on (SIGCONT). */
  thaw(): void;
}

function args(o: RtspCameraOptions): string[] {
  return [
    SCRIPT,
    '--port', String(o.port),
    '--codec', o.codec ?? 'h264',
    '--slices', String(o.slices ?? 1),
    '--width', String(o.width ?? 320),
    '--height', String(o.height ?? 240),
    '--fps', String(o.fps ?? 10),
    '--bitrate', String(o.bitrateKbps ?? 300),
    '--gop-seconds', String(o.gopSeconds ?? 1),
    ...(o.bframes ? ['--bframes', String(o.bframes)] : []),
    ...(o.user !== undefined ? ['--user', o.user, '--password', o.password ?? '', '--auth', o.auth ?? 'digest'] : []),
  ];
}

/**
 * Every test camera's port moves by RTSP_TEST_PORT_OFFSET (default 0), so two copies of the suite
 * can run on one machine.
 */
const PORT_OFFSET = Number(process.env.RTSP_TEST_PORT_OFFSET ?? 0);

export async function startRtspCamera(opts: RtspCameraOptions): Promise<RtspCamera> {
  if (!Number.isInteger(PORT_OFFSET) || PORT_OFFSET < 0) throw new Error(`RTSP_TEST_PORT_OFFSET must be a whole number ≥ 0, not ${process.env.RTSP_TEST_PORT_OFFSET}`);
  const o = { ...opts, port: opts.port + PORT_OFFSET };
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run node scripts/setup.mjs --for=test`);
  let child: ChildProcess | undefined;
  let open = 0;
  let opened = 0;
  let stderr = '';

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const c = spawn(PYTHON, args(o), { stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      open = 0;
      opened = 0;
      let out = '';
      const fail = (why: string) => reject(new Error(`RTSP test camera on port ${o.port}: ${why}\n${stderr.slice(-2000)}`));
      const timer = setTimeout(() => {
        c.kill('SIGKILL');
        fail('not ready within 10 s');
      }, 10_000);
      c.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready ')) {
          clearTimeout(timer);
          resolve();
        }
      });
      c.stderr?.on('data', (d: Buffer) => {
        const text = d.toString();
        stderr = (stderr + text).slice(-8000);
        for (const m of text.matchAll(/session (open|close) (\d+)/g)) {
          open = Number(m[2]);
          if (m[1] === 'open') opened += 1;
        }
      });
      c.once('exit', (code) => {
        clearTimeout(timer);
        fail(`exited with ${code} before it was ready (is scripts/setup.mjs --for=test done?)`);
      });
    });

  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 3_000);
    await gone;
    clearTimeout(timer);
  };

  await launch();
  return {
    url: `rtsp://${o.user !== undefined ? `${encodeURIComponent(o.user)}:${encodeURIComponent(o.password ?? '')}@` : ''}127.0.0.1:${o.port}/cam`,
    get openSessions() {
      return open;
    },
    get sessionsOpened() {
      return opened;
    },
    stop,
    freeze() {
      child?.kill('SIGSTOP');
    },
    thaw() {
      child?.kill('SIGCONT');
    },
    async restart(downMs = 500) {
      await stop();
      await new Promise((r) => setTimeout(r, downMs));
      await launch();
    },
  };
}
