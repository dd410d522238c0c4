import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { CameraSession } from '../../media/camera-session.ts';
import { FFMPEG_GLOBAL_ARGS, sessionInputOptions } from '../../media/ffmpeg-args.ts';
import { filter } from '../../media/filtergraph.ts';

/**
 * The pictures a camera's analysis reads: a few a second, as RGB at most `maxWidth` wide, decoded
 * from what the camera already sends (a URL camera's running session: no second connection to the
 * camera) by one ffmpeg per analysed camera.
 */
export interface AnalysisFrame {
  /** When it was seen (epoch ms, the agent's clock). */
  time: number;
  width: number;
  height: number;
  /** width × height × 3 bytes. */
  rgb: Uint8Array;
}

export interface FramesRequest {
  /** Frames a second. */
  fps: number;
  /** Widest frame; a smaller camera's picture keeps its own width. */
  maxWidth: number;
  onFrame(frame: AnalysisFrame): void;
  /** The feed ended by itself (the decoder exited, the camera cannot be read): the caller may start another. */
  onEnd(reason: string): void;
  now?: () => number;
}

export interface FrameFeed {
  stop(): void;
}

/** The size frames of a width × height picture come out at: at most maxWidth wide, even, aspect kept. */
export function frameSize(width: number, height: number, maxWidth: number): { width: number; height: number } {
  const w = Math.min(maxWidth, width) & ~1;
  return { width: w, height: Math.max(2, Math.round((height * w) / width / 2) * 2) };
}

/** The output half of an analysis decoder: rate, size, raw RGB on stdout; one thread (a ship runs many). */
export function rawFrameOutputArgs(fps: number, width: number, height: number): string[] {
  const vf = [filter('fps', { fps }), filter('scale', { w: width, h: height })].join(',');
  return ['-threads', '1', '-vf', vf, '-an', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'];
}

/**
 * Runs ffmpeg with `args` (whose output is raw RGB frames of width × height) and hands each whole
 * frame on. `feed` writes its stdin when given and returns what stops it.
 */
export function startRawFrames(args: string[], width: number, height: number, req: FramesRequest, feed?: (stdin: NodeJS.WritableStream) => () => void, ffmpeg = 'ffmpeg'): FrameFeed {
  const now = req.now ?? Date.now;
  const child = spawn(ffmpeg, [...FFMPEG_GLOBAL_ARGS, ...args], { stdio: [feed ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  const frameBytes = width * height * 3;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let stopped = false;
  let stderr = '';
  let unfeed: (() => void) | undefined;
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-1000)));
  child.stdout?.on('data', (chunk: Buffer) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    while (pendingBytes >= frameBytes) {
      const all = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
      const rgb = new Uint8Array(frameBytes);
      rgb.set(all.subarray(0, frameBytes));
      const rest = all.subarray(frameBytes);
      pending = rest.length > 0 ? [rest] : [];
      pendingBytes = rest.length;
      if (!stopped) req.onFrame({ time: now(), width, height, rgb });
    }
  });
  child.on('error', (err) => {
    if (!stopped) req.onEnd(`ffmpeg could not start: ${err.message}`);
    stopped = true;
  });
  child.on('close', (code, signal) => {
    unfeed?.();
    if (!stopped) req.onEnd(`the analysis decoder ended (${signal ?? `exit ${code ?? '?'}`}): ${stderr.trim() || 'no message'}`);
    stopped = true;
  });
  if (feed && child.stdin) {
    child.stdin.on('error', () => undefined);
    unfeed = feed(child.stdin);
  }
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      unfeed?.();
      child.kill('SIGKILL');
    },
  };
}

/** A decoder this far behind the camera (bytes waiting for its stdin) is stopped, not waited for. */
const MAX_BEHIND_BYTES = 16 * 1024 * 1024;

/**
 * Frames of a URL camera's running session: its pictures (the GOP so far, then each one) go in the
 * session's container into a decoder that keeps `fps` frames a second. Waits for the session's first keyframe (the
 * camera's size) before the decoder starts.
 */
export function sessionFrames(session: CameraSession, req: FramesRequest, readyTimeoutMs = 15_000): FrameFeed {
  let inner: FrameFeed | undefined;
  let stopped = false;
  // Held while waiting, so the session is open (the agent holds it anyway).
  const hold = session.subscribe(() => undefined);
  session
    .ready(readyTimeoutMs)
    .then((info) => {
      if (stopped) return;
      const size = frameSize(info.width, info.height, req.maxWidth);
      let behind = false;
      // The session's container at the start: FLV for H.264, hvc1 fragmented MP4 for H.265.
      const input = [...sessionInputOptions(session.container ?? 'flv'), '-i', 'pipe:0'];
      inner = startRawFrames([...input, ...rawFrameOutputArgs(req.fps, size.width, size.height)], size.width, size.height, req, (stdin) => {
        return session.subscribeStream((chunk) => {
          if (behind) return;
          if ((stdin as Writable).writableLength > MAX_BEHIND_BYTES) {
            // Memory on the ship is not spent on a stuck decoder: it ends, and is started again.
            behind = true;
            // After startRawFrames returned (the GOP handed over at once may be what overflowed).
            queueMicrotask(() => {
              inner?.stop();
              req.onEnd('the analysis decoder fell behind the camera');
            });
            return;
          }
          stdin.write(chunk);
        }, undefined, {
          // A decoder reading MP4 from a pipe takes one init segment: a camera that changes its codec
          // or picture size ends this decoder, and the analysis starts it again.
          oneConfig: true,
          onStreamChange: (reason) => {
            inner?.stop();
            req.onEnd(reason);
          },
        });
      });
    })
    .catch((err: Error) => {
      if (!stopped) req.onEnd(`no picture from the camera: ${err.message}`);
    })
    .finally(hold);
  return {
    stop() {
      stopped = true;
      inner?.stop();
    },
  };
}
