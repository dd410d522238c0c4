import type { EncodeSpec, PlaybackSpeed } from '@ship-cctv/protocol';
import { FFMPEG_GLOBAL_ARGS, FMP4_OUTPUT_ARGS, type InputProbe, canCopy, canPassThrough, h264EncodeArgs } from '../media/ffmpeg-args.ts';
import { filter } from '../media/filtergraph.ts';

/**
 * ffmpeg command lines of ship playback (pure: no I/O, no clock). Output is the same fragmented
 * MP4 as live (one fragment per frame, init first), paced in played time, with media time running
 * from 0 in played time; recorded time = the run's first recorded moment + media time × speed.
 */

/** From this speed on, playback sends a decimated frame rate of keyframes only. */
export const FAST_SPEED = 8;

/** What goes up the link for a speed: frames per played second, keyframe interval, bitrate. */
export interface PlaybackPace {
  frameRate: number;
  /** Frames per keyframe (1 = keyframes only). */
  keyframeEvery: number;
  bitrateKbps: number;
}

/**
 * Up to 4×: the template's frame rate and bitrate — the camera's frames are picked every `speed`
 * recorded frames, so the link carries what live would. From 8×: about four times fewer frames
 * per recorded second than 1× over the speed-up (10 fps at 16× → 3 fps), each a keyframe (each
 * frame is far from the last anyway, and any frame can be dropped or shown alone), at the bitrate
 * the template gives that many frames — a fraction of one live stream, let alone speed × bitrate.
 */
export function playbackPace(encode: EncodeSpec, speed: PlaybackSpeed): PlaybackPace {
  if (speed < FAST_SPEED) return { frameRate: encode.frameRate, keyframeEvery: Math.max(1, Math.round(encode.frameRate)), bitrateKbps: encode.bitrateKbps };
  const frameRate = Math.min(encode.frameRate, Math.max(1, Math.round((encode.frameRate * 4) / speed)));
  return { frameRate, keyframeEvery: 1, bitrateKbps: Math.max(32, Math.round((encode.bitrateKbps * frameRate) / encode.frameRate)) };
}

/** Encoder options that replace the template's (later options win in ffmpeg). */
export function paceArgs(pace: PlaybackPace): string[] {
  const rate = `${pace.bitrateKbps}k`;
  const gop = String(pace.keyframeEvery);
  return ['-g', gop, '-keyint_min', gop, '-b:v', rate, '-maxrate', rate, '-bufsize', rate];
}

/** Output options go before the output URL, which ends every builder's command. */
export function beforeOutput(args: string[], extra: string[]): string[] {
  return [...args.slice(0, -1), ...extra, ...args.slice(-1)];
}

export interface RecordingPlaybackOptions {
  /** A concat-demuxer list of the segments to play (see concatList). */
  listFile: string;
  encode: EncodeSpec;
  speed: PlaybackSpeed;
  /** ffprobe of the first segment; absent means transcode. */
  probe?: InputProbe;
}

/**
 * Whether a recording plays without re-encoding: 1× and the camera's stream already fits the
 * template — H.264, or the camera's H.265 to a viewer that decodes it (`encode.passThrough`, as live).
 */
export function playsByCopy(o: Pick<RecordingPlaybackOptions, 'encode' | 'speed' | 'probe'>): boolean {
  return o.speed === 1 && o.probe !== undefined && (canCopy(o.probe, o.encode) || canPassThrough(o.probe, o.encode));
}

/** One file of a concat list, with the part of it to play in seconds of the file. */
export interface ConcatEntry {
  path: string;
  inpoint?: number;
  outpoint?: number;
}

/** A concat-demuxer list (`ffconcat version 1.0`), paths quoted. */
export function concatList(entries: readonly ConcatEntry[]): string {
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const lines = ['ffconcat version 1.0'];
  for (const e of entries) {
    lines.push(`file ${q(e.path)}`);
    if (e.inpoint !== undefined && e.inpoint > 0) lines.push(`inpoint ${e.inpoint.toFixed(3)}`);
    if (e.outpoint !== undefined) lines.push(`outpoint ${e.outpoint.toFixed(3)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A URL camera's recorded segments (a concat list of one continuous run): copied at 1× when the
 * camera's stream fits the template (read at its own pace), otherwise decoded — keyframes only from
 * 8× — re-timed to played time (÷ speed), decimated to the played frame rate, scaled into the
 * template's size, paced in real time and encoded like live.
 */
export function recordingPlaybackArgs(o: RecordingPlaybackOptions): string[] {
  const pace = playbackPace(o.encode, o.speed);
  const input = ['-f', 'concat', '-safe', '0'];
  const common = ['-map', '0:v:0', '-an', '-sn', '-dn'];
  if (playsByCopy(o)) {
    // H.265 as the recorder keeps it: `hvc1` (parameter sets in the init segment), as live sends it.
    const tag = o.probe?.codec === 'hevc' ? ['-tag:v', 'hvc1'] : [];
    return [...FFMPEG_GLOBAL_ARGS, '-re', ...input, '-i', o.listFile, ...common, '-c:v', 'copy', ...tag, ...FMP4_OUTPUT_ARGS];
  }
  const W = o.encode.width;
  const H = o.encode.height;
  const vf = [
    filter('setpts', { expr: `(PTS-STARTPTS)/${o.speed}` }),
    filter('fps', { fps: pace.frameRate }),
    filter('scale', { w: W, h: H, force_original_aspect_ratio: 'decrease', force_divisible_by: 2 }),
    filter('pad', { w: W, h: H, x: '(ow-iw)/2', y: '(oh-ih)/2' }),
    filter('setsar', { sar: 1 }),
    filter('realtime'),
  ].join(',');
  return [
    ...FFMPEG_GLOBAL_ARGS,
    ...(o.speed >= FAST_SPEED ? ['-skip_frame', 'nokey'] : []),
    // A recording of a multi-slice camera made before pictures were joined holds a picture in
    // several samples: decode them as one (see urlCameraArgs).
    '-flags2', '+chunks',
    ...input,
    '-i', o.listFile,
    ...common,
    '-vf', vf,
    ...h264EncodeArgs({ ...o.encode, frameRate: pace.frameRate, bitrateKbps: pace.bitrateKbps }),
    ...paceArgs(pace),
    ...FMP4_OUTPUT_ARGS,
  ];
}
