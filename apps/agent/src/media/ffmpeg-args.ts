import { type EncodeSpec, SATELLITE_TIER_MAX_KBPS } from '@ship-cctv/protocol';
import { filter } from './filtergraph.ts';

/**
 * Pure ffmpeg argument builders (no I/O, no clock): every camera ends in the same H.264 encoder and
 * a muxer on stdout — fragmented MP4, or FLV that the agent repackages into the same fragmented MP4
 * a frame sooner (live streams) — for the agent to forward up the link.
 */

/** Quiet, non-interactive: stderr carries only errors (it becomes the failure message's tail). */
export const FFMPEG_GLOBAL_ARGS = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error'] as const;

/** What ffprobe told us about a camera's video stream (see probe.ts). */
export interface InputProbe {
  /** ffmpeg codec name: h264, hevc, mjpeg … */
  codec: string;
  width: number;
  height: number;
  /** Frames per second when the input declares a plausible one. */
  frameRate?: number;
  bitrateKbps?: number;
  pixFmt?: string;
}

/**
 * Seconds between keyframes. One second above the satellite tier: a new viewer starts at the latest
 * keyframe, so it waits at most a second. At the satellite tier a keyframe of 320×180 costs 3–5 kB,
 * a second or more of the whole budget at 32 kbit/s: one a second would leave nothing for the
 * pictures between. There a keyframe comes every 10 s, and a viewer joining starts from the
 * latest one (the hub sends from there) at once rather than waiting for the next.
 */
export function keyframeSeconds(encode: Pick<EncodeSpec, 'bitrateKbps'>): number {
  return encode.bitrateKbps <= SATELLITE_TIER_MAX_KBPS ? 10 : 1;
}

const gop = (encode: EncodeSpec) => String(Math.max(1, Math.round(encode.frameRate * keyframeSeconds(encode))));

/** Bytes of boxes each picture's fragment adds on the link (moof with its traf and trun, mdat header, prft). */
const FRAGMENT_BOX_BYTES = 110;

/**
 * The encoder's bitrate (kbit/s) for a definition: its own, but at the satellite tier less what
 * the fragments' boxes take (one per picture: ~2.6 kbit/s at 3 fps, a tenth of 32 kbit/s), so the
 * stream on the link keeps to the definition's rate. Above the tier the boxes are lost in the
 * rounding.
 */
export function pictureKbps(encode: Pick<EncodeSpec, 'bitrateKbps' | 'frameRate'>): number {
  const kbps = Math.max(1, Math.round(encode.bitrateKbps));
  if (encode.bitrateKbps > SATELLITE_TIER_MAX_KBPS) return kbps;
  return Math.max(8, Math.round(kbps - (encode.frameRate * FRAGMENT_BOX_BYTES * 8) / 1000));
}

/** The picture's encoder for the request's codec: x264 (h264EncodeArgs) or SVT-AV1 (av1EncodeArgs). */
export function videoEncodeArgs(encode: EncodeSpec): string[] {
  return encode.codec === 'av1' ? av1EncodeArgs(encode) : h264EncodeArgs(encode);
}

/**
 * H.264 for Chromium's MSE at the lowest cost on the ship: ultrafast/zerolatency (no lookahead, no
 * B-frames), Baseline, a keyframe every second exactly (new viewers start at the latest keyframe),
 * a one-second VBV at the template's bitrate so the uplink sees a steady rate. `+global_header`
 * puts SPS/PPS in the init segment's avcC; without it the codec header comes out empty.
 *
 * At the satellite tier (≤ 32 kbit/s, 320×180 at a few frames a second) the picture is so small
 * that x264's slowest tools cost next to nothing (under 2 % of a core) while every bit counts:
 * preset `slower` (full motion search, trellis, 8×8 transforms), High profile (CABAC: ~10 % fewer
 * bits than Baseline's CAVLC; every browser decodes it), one thread (sliced threads cut a 180-line
 * picture into slices, each paying its own headers and losing prediction across them), still
 * zerolatency (no B-frames, no lookahead: nothing held back), a keyframe every 10 s
 * (keyframeSeconds) and a two-second VBV so a keyframe gets the bits it needs.
 */
export function h264EncodeArgs(encode: EncodeSpec): string[] {
  const satellite = encode.bitrateKbps <= SATELLITE_TIER_MAX_KBPS;
  const rate = `${pictureKbps(encode)}k`;
  return [
    '-c:v', 'libx264',
    '-preset', satellite ? 'slower' : 'ultrafast',
    '-tune', 'zerolatency',
    '-profile:v', satellite ? 'high' : 'baseline',
    ...(satellite ? ['-threads', '1'] : []),
    '-pix_fmt', 'yuv420p',
    '-g', gop(encode),
    '-keyint_min', gop(encode),
    '-sc_threshold', '0',
    '-b:v', rate,
    '-maxrate', rate,
    '-bufsize', satellite ? `${pictureKbps(encode) * 2}k` : rate,
    '-flags:v', '+global_header',
  ];
}

/**
 * AV1 with SVT-AV1 (Debian's ffmpeg 5.1 links libsvtav1 1.4), for live at low rates:
 * - `pred-struct=1`, low delay: every picture is put out as soon as it is encoded (the default,
 *   random access, holds a mini-GOP of 16 pictures back — 5 s at 3 fps);
 * - `rc=2`, CBR with a two-second buffer (`buf-sz`, `buf-initial-sz`, `buf-optimal-sz` in ms): the
 *   uplink sees a steady rate, and a keyframe may take two seconds of bits;
 * - preset 10: at 320×180 and a few frames a second it spends a few per cent of one core (see the
 *   README's benchmark); the slower presets gain little at this size for several times the CPU;
 * - `lp=1`: one thread — a ship runs several such streams beside its recorder, and a tiny picture
 *   gives threads nothing to share;
 * - `tune=0` (visual quality) and `scd=0` (keyframes only on the clock: a scene change at 32
 *   kbit/s would spend seconds of budget on one picture);
 * - the keyframe interval of keyframeSeconds; `+global_header` puts the sequence header in the
 *   init segment's av1C as well as in each keyframe.
 * The MP4 muxer (FMP4_OUTPUT_ARGS) carries it: ffmpeg 5.1's FLV muxer has no AV1.
 */
export function av1EncodeArgs(encode: EncodeSpec): string[] {
  const kbps = pictureKbps(encode);
  const params = ['pred-struct=1', 'rc=2', 'buf-sz=2000', 'buf-initial-sz=1000', 'buf-optimal-sz=1000', 'lp=1', 'tune=0', 'scd=0'];
  return [
    '-c:v', 'libsvtav1',
    '-preset', '10',
    '-svtav1-params', params.join(':'),
    '-pix_fmt', 'yuv420p',
    '-g', gop(encode),
    '-b:v', `${kbps}k`,
    '-flags:v', '+global_header',
  ];
}

/**
 * Fragmented MP4 on stdout: an init segment (ftyp+moov, no samples) then one moof+mdat per frame;
 * `-flush_packets 1` hands each fragment to the pipe at once (ffmpeg 5.1 already does so for pipes; explicit,
 * so it does not hang on how a version detects the output). The muxer writes a fragment only when
 * the next frame arrives (it needs the sample's duration): one frame of delay. Fine for files and
 * playback; live streams use FLV_OUTPUT_ARGS.
 */
export const FMP4_OUTPUT_ARGS = [
  '-f', 'mp4',
  '-movflags', '+frag_every_frame+empty_moov+default_base_moof',
  '-flush_packets', '1',
  'pipe:1',
] as const;

/**
 * FLV on stdout, each frame's tag flushed the moment it is encoded (FLV needs nothing from the next
 * frame): the sequence header (avcC) first, then one tag per frame with its decode time in ms. The
 * agent repackages it into the link's fragmented MP4 (FlvToFmp4, flv-packager.ts), a frame
 * earlier than FMP4_OUTPUT_ARGS would. `no_duration_filesize`: a pipe cannot be rewritten at the end.
 */
export const FLV_OUTPUT_ARGS = [
  '-f', 'flv',
  '-flvflags', 'no_duration_filesize',
  '-flush_packets', '1',
  'pipe:1',
] as const;

/** What the encoder writes to stdout: fragmented MP4 (read with Fmp4Reader) or FLV (FlvToFmp4). */
export type EncoderOutput = 'fmp4' | 'flv';

export function outputArgs(output: EncoderOutput = 'fmp4'): readonly string[] {
  return output === 'flv' ? FLV_OUTPUT_ARGS : FMP4_OUTPUT_ARGS;
}

/** Only the picture: no sound, subtitle or data streams. */
export const NO_OTHER_STREAMS = ['-an', '-sn', '-dn'] as const;

/** The live streams' sound: AAC-LC, mono, at a rate a satellite uplink can spare (see the README). */
export interface SoundSpec {
  sampleRate: number;
  channels: number;
  bitrateKbps: number;
}

/**
 * 16 kHz mono at 20 kbit/s: speech and engine noise stay intelligible (a 16 kHz rate keeps up to
 * 8 kHz); ffmpeg's native encoder at 16 kbit/s smears the tick. Measured: tests/integration/bench/live-audio.bench.ts.
 */
export const LIVE_SOUND: SoundSpec = { sampleRate: 16_000, channels: 1, bitrateKbps: 20 };

/** The file descriptor the sound's FLV comes out of (its own muxer: a picture never waits for sound). */
export const SOUND_OUTPUT_FD = 3;
/** The file descriptor the speaker's PCM goes in at. */
export const SPEAKER_INPUT_FD = 4;

/** AAC to FLV on SOUND_OUTPUT_FD, each frame flushed at once. */
export function soundOutputArgs(spec: SoundSpec, source: string): string[] {
  return [
    '-map', source,
    '-vn', '-sn', '-dn',
    '-c:a', 'aac',
    '-b:a', `${spec.bitrateKbps}k`,
    '-ar', String(spec.sampleRate),
    '-ac', String(spec.channels),
    '-f', 'flv',
    '-flvflags', 'no_duration_filesize',
    '-flush_packets', '1',
    `pipe:${SOUND_OUTPUT_FD}`,
  ];
}

export type UrlKind = 'rtsp' | 'file' | 'network';

/** How ffmpeg should open a camera URL: RTSP, a local file (played as a looping live camera), or other network input. */
export function urlKind(url: string): UrlKind {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'rtsp' || scheme === 'rtsps') return 'rtsp';
  if (scheme === undefined || scheme === 'file' || /^[a-z]:[\\/]/i.test(url)) return 'file';
  return 'network';
}

/**
 * How far above the template's frame rate a camera's measured rate may be and still count as the
 * same: a camera session measures it from the camera's clock, which wanders (10 fps read as
 * 9.98–10.01 over its last pictures, frame-rate.ts). Without it a camera at the template's very
 * rate was transcoded now and then — three pictures (300 ms at 10 fps) of decoder and frame-rate
 * filter on the ship, and an encoder's CPU.
 */
const FRAME_RATE_TOLERANCE = 0.02;

/**
 * Whether a camera's own stream can go up the link untouched: H.264 asked and sent (H.265 never: browsers' MSE
 * does not take it), 4:2:0 8-bit if known, exactly the template's size, a known frame rate no higher
 * than the template's (within FRAME_RATE_TOLERANCE), and a bitrate no higher than the template's
 * when the input declares one.
 */
export function canCopy(probe: InputProbe, encode: EncodeSpec): boolean {
  return encode.codec === 'h264' && probe.codec === 'h264' && fitsDefinition(probe, encode);
}

/**
 * Whether an H.265 camera's own stream goes up untouched: every viewer decodes H.265
 * (`encode.passThrough`) and the stream fits the definition as canCopy asks of H.264.
 */
export function canPassThrough(probe: InputProbe, encode: EncodeSpec): boolean {
  return probe.codec === 'hevc' && (encode.passThrough ?? []).includes('h265') && fitsDefinition(probe, encode);
}

function fitsDefinition(probe: InputProbe, encode: EncodeSpec): boolean {
  return (
    (probe.pixFmt === undefined || probe.pixFmt === 'yuv420p' || probe.pixFmt === 'yuvj420p') &&
    probe.width === encode.width &&
    probe.height === encode.height &&
    probe.frameRate !== undefined &&
    probe.frameRate <= encode.frameRate * (1 + FRAME_RATE_TOLERANCE) &&
    (probe.bitrateKbps === undefined || probe.bitrateKbps <= encode.bitrateKbps)
  );
}

/**
 * Decoder threads that hold no picture back. ffmpeg's H.264 decoder threads by frame by default:
 * with N threads a picture comes out N−1 pictures after it went in (on 2 CPUs, 3 threads: 200 ms
 * at 10 fps). Slice threads decode the slices of one picture side by side and hold nothing.
 */
const DECODE_AT_ONCE_ARGS = ['-thread_type', 'slice'] as const;

/** Whether a camera's frame rate is the template's (within FRAME_RATE_TOLERANCE either way). */
function sameFrameRate(cameraFps: number | undefined, encode: EncodeSpec): boolean {
  return cameraFps !== undefined && Math.abs(cameraFps - encode.frameRate) <= encode.frameRate * FRAME_RATE_TOLERANCE;
}

/**
 * A camera faster than the template, brought down to the template's rate without holding a
 * picture: a picture passes when it is the first of a new 1/rate slot after the last one passed
 * (25 fps into 10: 0, 120, 200, 320, 400 ms…; 30 into 15: every other one). The frame-rate filter
 * would hold each picture until the next had come (40 ms at 25 fps). The output's `-r` then gives
 * the encoder the template's rate (its rate control shares the bitrate out per picture: at the
 * camera's rate it would spend half of it) and stamps each picture with its slot.
 */
function thinOutFilter(frameRate: number): string {
  return filter('select', { expr: `isnan(prev_selected_t)+gte(floor(t*${frameRate}),floor(prev_selected_t*${frameRate})+1)` });
}

/**
 * Scaled into the template's size keeping the aspect (letterboxed), at its frame rate, encoded.
 * A camera at the template's rate passes as it is; a faster one is thinned out before scaling (no
 * picture held, none scaled for nothing); a slower one, or one whose rate is not known, goes
 * through the frame-rate filter, which repeats pictures up to the template's rate (the keyframe
 * interval counts pictures) and puts each out only when the next has come.
 */
function transcodeVideoArgs(encode: EncodeSpec, cameraFps?: number): string[] {
  const W = encode.width;
  const H = encode.height;
  const same = sameFrameRate(cameraFps, encode);
  const faster = !same && cameraFps !== undefined && cameraFps > encode.frameRate;
  const slowerOrUnknown = !same && !faster;
  return [
    '-vf',
    [
      // Nothing before the camera's first keyframe: joined mid-GOP, a decoder (H.265's above
      // all) puts out grey pictures for the references it never had. st/ld keep a flag across
      // frames: 0 until a keyframe, 1 from then on.
      filter('select', { expr: 'st(0,max(ld(0),key))' }),
      ...(faster ? [thinOutFilter(encode.frameRate)] : []),
      filter('scale', { w: W, h: H, force_original_aspect_ratio: 'decrease', force_divisible_by: 2 }),
      filter('pad', { w: W, h: H, x: '(ow-iw)/2', y: '(oh-ih)/2' }),
      filter('setsar', { sar: 1 }),
      ...(slowerOrUnknown ? [filter('fps', { fps: encode.frameRate })] : []),
    ].join(','),
    ...(faster ? ['-r', String(encode.frameRate)] : []),
    ...videoEncodeArgs(encode),
  ];
}

export interface UrlCameraOptions {
  url: string;
  encode: EncodeSpec;
  /** What ffprobe found; absent (probe failed or skipped) means transcode. */
  probe?: InputProbe;
  /** Stop after this many seconds of video. */
  durationSeconds?: number;
  /** Container on stdout. Default 'fmp4'; live streams use 'flv' (a frame less delay). */
  output?: EncoderOutput;
}

/** Frames per second of urlCameraArgs' output: the camera's own when copied, else the template's. */
export function urlCameraFrameRate(opts: Pick<UrlCameraOptions, 'encode' | 'probe'>): number {
  return opts.probe?.frameRate !== undefined && canCopy(opts.probe, opts.encode) ? opts.probe.frameRate : opts.encode.frameRate;
}

/**
 * A camera at any URL ffmpeg opens. RTSP goes over TCP (satellite-grade loss would tear UDP video
 * apart) with a 5 s socket time-out so a dead camera fails instead of hanging; network inputs skip
 * input buffering and analyse at most 1 s; a local file plays at its own pace, looping, like a live
 * camera. The video is copied when it already fits the template (see canCopy), else scaled into the
 * template's size keeping its aspect (letterboxed), set to its frame rate and encoded.
 *
 * Decoding (transcode only) uses `-flags2 +chunks`: a camera that cuts its pictures into slices and
 * repeats SPS/PPS before each slice reaches the decoder as several packets per picture (ffmpeg's
 * parser takes each SPS for a new picture); by default the decoder ends a picture at every packet,
 * so the rest of it comes out grey or smeared. With chunks it ends a picture when all its
 * macroblocks are in (no added delay) or the next picture starts. `-flags low_delay` is not used:
 * it cannot mend that, and on a camera with B-frames it would put pictures out of order.
 */
export function urlCameraArgs(opts: UrlCameraOptions): string[] {
  const { url, encode } = opts;
  const copy = opts.probe !== undefined && canCopy(opts.probe, encode);
  const input = cameraInputArgs(url);
  const video = copy ? ['-c:v', 'copy'] : transcodeVideoArgs(encode, opts.probe?.frameRate);
  return [
    ...FFMPEG_GLOBAL_ARGS,
    ...input,
    ...(copy ? [] : ['-flags2', '+chunks', ...DECODE_AT_ONCE_ARGS]),
    '-i', url,
    ...(opts.durationSeconds !== undefined ? ['-t', String(opts.durationSeconds)] : []),
    '-map', '0:v:0',
    ...NO_OTHER_STREAMS,
    ...video,
    ...outputArgs(opts.output),
  ];
}

/** How ffmpeg opens a camera URL to read it for long: RTSP over TCP, other network inputs unbuffered, a file looped at its own pace. */
export function cameraInputArgs(url: string): string[] {
  const kind = urlKind(url);
  if (kind === 'file') return ['-re', '-stream_loop', '-1'];
  return [...(kind === 'rtsp' ? ['-rtsp_transport', 'tcp', '-timeout', '5000000'] : []), '-fflags', 'nobuffer', '-analyzeduration', '1000000'];
}

/**
 * The one reader of a camera (camera-session.ts): its video copied, untouched, into FLV on stdout,
 * each packet flushed at once. The agent joins the packets into whole pictures and hands them to
 * the recorder, live streams and pictures of that camera: one RTSP session per camera.
 */
export function cameraSessionArgs(url: string): string[] {
  // RTSP: the SDP carries the codec and its parameter sets, so nothing is analysed — the first
  // picture leaves ffmpeg ~0.2 s after the spawn instead of ~2.2 s (analysing 1 s, then a frame).
  // A camera whose SDP lacks them sends them in band: the sequence header comes with the first
  // keyframe. Other inputs (MPEG-TS over UDP …) need their analysis to find the stream.
  const input = urlKind(url) === 'rtsp' ? ['-rtsp_transport', 'tcp', '-timeout', '5000000', '-probesize', '32', '-analyzeduration', '0'] : cameraInputArgs(url);
  return [...FFMPEG_GLOBAL_ARGS, ...input, '-i', url, '-map', '0:v:0', ...NO_OTHER_STREAMS, '-c:v', 'copy', ...FLV_OUTPUT_ARGS];
}

/**
 * FLV of whole pictures on stdin (from a camera session), as fed by the agent. No probing beyond
 * the first tags: the sequence header and a keyframe come first, and waiting to measure a frame
 * rate would only delay the first picture. Not `-fflags nobuffer`: it throws away the pictures
 * read while probing — the keyframe among them.
 */
export const SESSION_INPUT_OPTIONS = ['-f', 'flv', '-probesize', '4096', '-analyzeduration', '0'] as const;
export const SESSION_INPUT_ARGS = [...SESSION_INPUT_OPTIONS, '-i', 'pipe:0'] as const;

/**
 * The session's stream on stdin in its container (session-muxer.ts): FLV for H.264, hvc1
 * fragmented MP4 for H.265 — read fragment by fragment, no probing beyond the first bytes either.
 */
export function sessionInputOptions(container: 'flv' | 'mp4' = 'flv'): readonly string[] {
  return container === 'flv' ? SESSION_INPUT_OPTIONS : ['-f', 'mp4', '-probesize', '4096', '-analyzeduration', '0'];
}

/**
 * A live stream of a camera session's pictures (stdin) in the template's size, rate and bitrate;
 * `cameraFps`, the session's measured rate, if known. Nothing held back on the way: 10 ms from the
 * session's picture to the packager against 310 ms with frame threads and the frame-rate filter
 * (the live-video benchmark's rig with LIVE_RIG_AGES=1, a camera at the template's 10 fps).
 */
export function sessionTranscodeArgs(encode: EncodeSpec, output: EncoderOutput = 'flv', cameraFps?: number, container: 'flv' | 'mp4' = 'flv'): string[] {
  return [
    ...FFMPEG_GLOBAL_ARGS,
    ...sessionInputOptions(container),
    ...DECODE_AT_ONCE_ARGS,
    '-i', 'pipe:0',
    '-map', '0:v:0',
    ...NO_OTHER_STREAMS,
    ...transcodeVideoArgs(encode, cameraFps),
    ...outputArgs(output),
  ];
}
