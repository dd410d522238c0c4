import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import type { EncodeSpec } from '@ship-cctv/protocol';
import { type VideoDefinition, codecFamily } from '@ship-cctv/media';
import { FFMPEG_GLOBAL_ARGS, NO_OTHER_STREAMS, h264EncodeArgs } from '../media/ffmpeg-args.ts';
import { filter } from '../media/filtergraph.ts';

/**
 * Backfill in a definition shore asks for: whether the ship's own recording already fits it (then
 * it is copied, costing no CPU), and the ffmpeg that transcodes a recorded span into it otherwise.
 */

/** The transcoder's niceness: backfill waits behind live video and playback for the CPU too. */
const TRANSCODE_NICENESS = 19;

/**
 * A lower definition is worth transcoding into only when it saves at least this share of the bytes
 * (its bits a second against those recorded): a 640×360 minute at 456 kbit/s asked at 400 would
 * save 11 % for 3.5 s of ffmpeg and a second generation of loss; a 320×180 one at 172 kbit/s asked
 * at 5 fps and 150 kbit/s 12 % (tests/integration/bench/backfill-definition.bench.ts).
 */
const WORTH_SAVING = 0.25;

/**
 * What to send for a span recorded in `recorded` when shore asks for `asked`: the ship's bytes
 * (`copy`) when they are H.264 and the ask would save less than WORTH_SAVING of them (whatever its
 * size and rate: the same bytes in the recorded picture are the better picture, and cost the ship
 * nothing) — or else the definition to transcode into: the ask, never above what was recorded (no
 * upscaling, no added pictures, no more bits than the copy would take).
 */
export function backfillPlan(recorded: VideoDefinition, asked: EncodeSpec): { copy: true } | { copy: false; encode: EncodeSpec } {
  const pixels = (d: { width: number; height: number }) => d.width * d.height;
  const h264 = codecFamily(recorded.codec) === 'h264';
  if (h264 && asked.bitrateKbps >= recorded.bitrateKbps * (1 - WORTH_SAVING)) return { copy: true };
  const size = pixels(asked) < pixels(recorded) || !h264 ? { width: asked.width, height: asked.height } : { width: recorded.width, height: recorded.height };
  return {
    copy: false,
    encode: {
      ...size,
      frameRate: Math.min(asked.frameRate, Math.max(1, Math.round(recorded.frameRate))),
      bitrateKbps: Math.max(1, Math.min(asked.bitrateKbps, recorded.bitrateKbps)),
      codec: 'h264',
    },
  };
}

/**
 * ffmpeg reading a recorded span (fragmented MP4) on stdin and writing it on stdout in `encode`:
 * scaled into its size keeping the aspect (letterboxed, as live is), at its frame rate, encoded as
 * live is (h264EncodeArgs) on one thread (run at the lowest CPU priority: backfill waits behind
 * everything), in fragments of at most a second (a keyframe starts each), each with its
 * init segment first: a file the shore recorder keeps as one segment.
 */
export function backfillTranscodeArgs(encode: EncodeSpec): string[] {
  const W = encode.width;
  const H = encode.height;
  return [
    ...FFMPEG_GLOBAL_ARGS,
    '-f', 'mp4',
    '-flags2', '+chunks',
    '-i', 'pipe:0',
    '-map', '0:v:0',
    ...NO_OTHER_STREAMS,
    '-vf',
    [
      filter('fps', { fps: encode.frameRate }),
      filter('scale', { w: W, h: H, force_original_aspect_ratio: 'decrease', force_divisible_by: 2 }),
      filter('pad', { w: W, h: H, x: '(ow-iw)/2', y: '(oh-ih)/2' }),
      filter('setsar', { sar: 1 }),
    ].join(','),
    ...h264EncodeArgs(encode),
    '-threads', '1',
    '-f', 'mp4',
    '-movflags', '+frag_keyframe+empty_moov+default_base_moof',
    '-frag_duration', '1000000',
    'pipe:1',
  ];
}

export interface Transcoding {
  /** Hands a piece of the recorded span to ffmpeg; resolves when it may take more. */
  write(chunk: Uint8Array): Promise<void>;
  /** The whole span was written: resolves once ffmpeg has put out everything (rejects with its words when it failed). */
  end(): Promise<void>;
  /** Stops ffmpeg (the link went). */
  kill(): void;
}

/**
 * Runs backfillTranscodeArgs: what ffmpeg writes goes to `output` as it comes. The caller feeds the
 * span with write() and end(); stdin's back-pressure keeps only a pipe's worth of it in memory.
 */
export function startTranscoding(encode: EncodeSpec, output: (chunk: Uint8Array) => void, command = 'ffmpeg'): Transcoding {
  const child = spawn(command, backfillTranscodeArgs(encode), { stdio: ['pipe', 'pipe', 'pipe'] });
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, TRANSCODE_NICENESS);
    } catch {
      // Not allowed here: it runs at the agent's priority.
    }
  }
  let stderr = '';
  let failure: string | undefined;
  child.stdout.on('data', (chunk: Buffer) => output(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-1024);
  });
  child.on('error', (err) => {
    failure ??= `cannot run ${command}: ${err.message}`;
  });
  // A write after ffmpeg went away: its exit says why.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    write: (chunk) =>
      new Promise((resolve) => {
        if (child.stdin.destroyed || !child.stdin.write(chunk)) {
          if (child.stdin.destroyed) return resolve();
          child.stdin.once('drain', () => resolve());
          void exited.then(() => resolve());
        } else resolve();
      }),
    end: async () => {
      child.stdin.end();
      const code = await exited;
      if (code !== 0 || failure) throw new Error(failure ?? `ffmpeg ended with ${code}: ${stderr.trim() || 'no message'}`);
    },
    kill: () => void child.kill('SIGKILL'),
  };
}
