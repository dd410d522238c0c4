import {
  CODE_BLACK,
  CODE_CELLS,
  CODE_COLS,
  CODE_DATA_BITS,
  CODE_DATA_START,
  CODE_PARITY_BITS,
  CODE_PARITY_START,
  CODE_ROWS,
  CODE_WHITE,
  type EncodeSpec,
  captureCodeLayout,
} from '@ship-cctv/protocol';
import { type FilterOptions, chain, filter } from './filtergraph.ts';

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

const gop = (encode: EncodeSpec) => String(Math.max(1, Math.round(encode.frameRate)));

/**
 * H.264 for Chromium's MSE at the lowest cost on the ship: ultrafast/zerolatency (no lookahead, no
 * B-frames), Baseline, a keyframe every second exactly (new viewers start at the latest keyframe),
 * a one-second VBV at the template's bitrate so the uplink sees a steady rate. `+global_header`
 * puts SPS/PPS in the init segment's avcC; without it the codec header comes out empty.
 */
export function h264EncodeArgs(encode: EncodeSpec): string[] {
  const rate = `${Math.max(1, Math.round(encode.bitrateKbps))}k`;
  return [
    '-c:v', 'libx264',
    '-preset', 'ultrafast',
    '-tune', 'zerolatency',
    '-profile:v', 'baseline',
    '-pix_fmt', 'yuv420p',
    '-g', gop(encode),
    '-keyint_min', gop(encode),
    '-sc_threshold', '0',
    '-b:v', rate,
    '-maxrate', rate,
    '-bufsize', rate,
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

const NO_OTHER_STREAMS = ['-an', '-sn', '-dn'] as const;

export interface SyntheticCameraOptions {
  /** Drawn in the top-left corner (any characters; a CJK name needs a CJK font, see fonts.ts). */
  cameraName: string;
  encode: EncodeSpec;
  /**
   * Absolute time of the first frame. Given: frame n shows startEpochMs + n/fps (any past moment
   * can be rendered again exactly). Absent: each frame shows the wall clock when it was made
   * (live; use with `realtime`).
   */
  startEpochMs?: number;
  /** Font for the clock (a monospace one keeps the digits still). Absent: fontconfig's monospace. */
  fontFile?: string;
  /** Font for the camera name; defaults to fontFile, else fontconfig's sans. */
  nameFontFile?: string;
  /** Make frames at wall-clock pace (live) rather than as fast as the encoder goes (rendering). */
  realtime: boolean;
  /** Stop after this many seconds of video. */
  durationSeconds?: number;
  /** Container on stdout. Default 'fmp4'; live streams use 'flv' (a frame less delay). */
  output?: EncoderOutput;
  /** Sound too: AAC as FLV on fd 3 (SOUND_OUTPUT_FD), see syntheticSoundGraph. Default none. */
  audio?: SyntheticSoundOptions;
  /** A PTZ camera: the picture is a window onto a larger scene (see ptzWindowStage). */
  ptz?: PtzStage;
}

/** The live streams' sound: AAC-LC, mono, at a rate a satellite uplink can spare (see the README). */
export interface SoundSpec {
  sampleRate: number;
  channels: number;
  bitrateKbps: number;
}

/**
 * 16 kHz mono at 20 kbit/s: speech and engine noise stay intelligible (a 16 kHz rate keeps up to
 * 8 kHz); ffmpeg's native encoder at 16 kbit/s smears the tick. Measured: apps/agent/bench/live-audio.bench.ts.
 */
export const LIVE_SOUND: SoundSpec = { sampleRate: 16_000, channels: 1, bitrateKbps: 20 };

export interface SyntheticSoundOptions {
  spec: SoundSpec;
  /**
   * Mix in PCM from fd SPEAKER_INPUT_FD (s16le mono at spec.sampleRate, written in real time by
   * a SpeakerFeed pump): the ship's speaker heard by the camera's microphone.
   */
  speakerInput?: boolean;
}

/** The file descriptor the sound's FLV comes out of (its own muxer: a picture never waits for sound). */
export const SOUND_OUTPUT_FD = 3;
/** The file descriptor the speaker's PCM goes in at. */
export const SPEAKER_INPUT_FD = 4;

/**
 * The speaker's PCM needs no probing (its format is given): without these ffmpeg reads ~1.7 s of
 * it before the first picture leaves.
 */
const SPEAKER_INPUT_OPTIONS = ['-probesize', '32', '-analyzeduration', '0'] as const;

/** Sound samples per lavfi frame: 20 ms at 16 kHz, so the sound is paced as finely as the pictures. */
const SOUND_FRAME_SAMPLES = 320;

/**
 * The synthetic camera's sound as a function of absolute time, like its picture: an engine hum
 * (a 50 Hz fundamental with harmonics, breathing slowly) and a tick — a 2 kHz click 30 ms long —
 * at each whole UTC second, when the burned-in clock turns. The absolute time of sample 0 is kept
 * in the expression's register 0: startEpochMs when given, else the wall clock when the first
 * sound frame is made (which is when the first picture is, within a frame: both come from one
 * lavfi graph paced in real time).
 */
export function syntheticSoundGraph(opts: { sampleRate: number; startEpochMs?: number; realtime: boolean }): string {
  const origin = opts.startEpochMs === undefined ? 'if(eq(n,0),time(0),ld(0))' : String(opts.startEpochMs / 1000);
  const phase = 'mod(ld(0)+t,1)';
  const hum = '(0.22*sin(2*PI*50*t)+0.12*sin(2*PI*100*t+1)+0.07*sin(2*PI*150*t+2)+0.04*sin(2*PI*250*t))*(0.85+0.15*sin(2*PI*0.3*t))';
  const tick = `0.6*lt(${phase},0.03)*exp(-120*${phase})*sin(2*PI*2000*t)`;
  return chain(
    [],
    [
      filter('aevalsrc', { exprs: `st(0,${origin});${hum}+${tick}`, s: opts.sampleRate, n: SOUND_FRAME_SAMPLES, c: 'mono' }),
      ...(opts.realtime ? [filter('arealtime')] : []),
    ],
    ['out1'],
  );
}

/** AAC to FLV on SOUND_OUTPUT_FD, each frame flushed at once. */
function soundOutputArgs(spec: SoundSpec, source: string): string[] {
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

/**
 * The synthetic PTZ camera's window: the scene is drawn `sceneScale` times the picture's size each
 * way, `crop@ptz` cuts the window (x and y may be expressions of the frame time t in epoch seconds)
 * and it is scaled back to the picture's size before the name, clock and capture code are drawn,
 * so they stay where they are. With `zmqPort`, a `zmq` filter bound to 127.0.0.1 takes crop
 * commands (x, y, w, h) while ffmpeg runs: the agent steers a running stream without a restart.
 */
export interface PtzStage {
  sceneScale: number;
  crop: { w: number; h: number; x: string; y: string };
  zmqPort?: number;
}

/** The crop filter's instance name: commands address it as `crop@ptz`. */
export const PTZ_CROP_TARGET = 'crop@ptz';

/** Landmarks drawn into the PTZ scene (fractions of the scene), so a move is obvious. */
const LANDMARKS = [
  { label: 'MAST', x: 0.12, y: 0.14, c: '0xc0392b' },
  { label: 'BOW', x: 0.46, y: 0.1, c: '0x27ae60' },
  { label: 'RADAR', x: 0.8, y: 0.16, c: '0x8e44ad' },
  { label: 'PORT', x: 0.1, y: 0.62, c: '0xd35400' },
  { label: 'HATCH', x: 0.5, y: 0.56, c: '0xf1c40f' },
  { label: 'STBD', x: 0.82, y: 0.66, c: '0x16a085' },
  { label: 'CRANE', x: 0.3, y: 0.86, c: '0x2c3e50' },
  { label: 'LIFEBOAT', x: 0.7, y: 0.88, c: '0xe67e22' },
] as const;

/** The scene's fixed landmarks (boxes with labels) and the window cut out of it, scaled to W×H. */
function ptzSceneAndWindow(stage: PtzStage, W: number, H: number, labelFont: FilterOptions): { scene: string[]; window: string[] } {
  const SW = W * stage.sceneScale;
  const SH = H * stage.sceneScale;
  const size = Math.round(SH / 9);
  const scene = LANDMARKS.flatMap((m) => [
    filter('drawbox', { x: Math.round(m.x * SW), y: Math.round(m.y * SH), w: size * 2, h: size, color: m.c, t: 'fill' }),
    filter('drawtext', { ...labelFont, expansion: 'none', text: m.label, fontsize: Math.round(size / 2.5), fontcolor: 'white', x: Math.round(m.x * SW) + 6, y: Math.round(m.y * SH) + size + 6 }),
  ]);
  const window = [
    ...(stage.zmqPort !== undefined ? [filter('zmq', { b: `tcp://127.0.0.1:${stage.zmqPort}` })] : []),
    filter(PTZ_CROP_TARGET, { w: stage.crop.w, h: stage.crop.h, x: stage.crop.x, y: stage.crop.y }),
    // crop sets the size of its output link itself when w/h change: scale would not notice a
    // changed frame size straight after it; behind `null` it does, and scales to W×H again.
    filter('null'),
    filter('scale', { w: W, h: H }),
  ];
  return { scene, window };
}

/**
 * The capture code as a geq expression over a CODE_COLS × CODE_ROWS image (one pixel per cell,
 * scaled up afterwards), from the frame time T in seconds. ld(0) = epoch ms, ld(1) = cell index.
 * Mirrors captureCodeCells() in @ship-cctv/protocol.
 */
export function captureCodeExpression(): string {
  const bit = (index: string) => `mod(floor(ld(0)/pow(2,${index})),2)`;
  const lastData = CODE_DATA_START + CODE_DATA_BITS - 1;
  const parityTerms: string[] = [];
  for (let j = 0; j < CODE_DATA_BITS / CODE_PARITY_BITS; j++) {
    parityTerms.push(bit(`${j * CODE_PARITY_BITS}+ld(1)-${CODE_PARITY_START}`));
  }
  const white =
    `if(lt(ld(1),${CODE_DATA_START}),eq(ld(1),0),` +
    `if(lt(ld(1),${CODE_PARITY_START}),${bit(`${lastData}-ld(1)`)},` +
    `if(lt(ld(1),${CODE_PARITY_START + CODE_PARITY_BITS}),mod(${parityTerms.join('+')},2),` +
    `eq(ld(1),${CODE_CELLS - 1}))))`;
  return `st(0,round(T*1000));st(1,Y*${CODE_COLS}+X);${CODE_BLACK}+${CODE_WHITE - CODE_BLACK}*${white}`;
}

const fontOption = (file: string | undefined, family: string) => (file ? { fontfile: file } : { font: family });

/**
 * The built-in synthetic camera: a lavfi picture that is a pure function of absolute time — a
 * moving square placed by the time, the camera name, a UTC clock to the millisecond, and the
 * capture code — encoded like any camera.
 *
 * Time: frames are re-stamped in milliseconds of absolute time (settb=1/1000, then setpts from
 * startEpochMs or from the wall clock `time(0)`), every time-dependent filter reads that stamp
 * (geq T, overlay t, drawtext pts/t), and the output is re-stamped N/FRAME_RATE so the MP4 has a
 * steady frame rate from 0
 * (time base 1/fps). The code is computed by geq on a 14×4 crop (56 expression evaluations
 * per frame) and scaled up with nearest-neighbour, which costs next to nothing.
 */
export function syntheticCameraArgs(opts: SyntheticCameraOptions): string[] {
  const duration = opts.durationSeconds !== undefined ? ['-t', String(opts.durationSeconds)] : [];
  const sound = opts.audio;
  const graph = syntheticCameraGraph(opts);
  if (!sound) return [...FFMPEG_GLOBAL_ARGS, '-f', 'lavfi', '-i', graph, ...duration, ...NO_OTHER_STREAMS, ...h264EncodeArgs(opts.encode), ...outputArgs(opts.output)];
  const { sampleRate } = sound.spec;
  const soundGraph = syntheticSoundGraph({ sampleRate, realtime: opts.realtime, ...(opts.startEpochMs !== undefined ? { startEpochMs: opts.startEpochMs } : {}) });
  // The speaker's PCM is mixed at full level on top of the camera's own sound (amix without
  // normalising; the camera's sound decides the length).
  const speaker = sound.speakerInput
    ? ['-f', 's16le', '-ar', String(sampleRate), '-ac', '1', ...SPEAKER_INPUT_OPTIONS, '-i', `pipe:${SPEAKER_INPUT_FD}`, '-filter_complex', chain(['0:a', '1:a'], [filter('amix', { inputs: 2, duration: 'first', dropout_transition: 0, normalize: 0 })], ['sound'])]
    : [];
  return [
    ...FFMPEG_GLOBAL_ARGS,
    '-f', 'lavfi',
    '-i', `${graph};${soundGraph}`,
    ...speaker,
    '-map', '0:v:0',
    ...duration,
    ...NO_OTHER_STREAMS,
    ...h264EncodeArgs(opts.encode),
    ...outputArgs(opts.output),
    ...duration,
    ...soundOutputArgs(sound.spec, sound.speakerInput ? '[sound]' : '0:a:0'),
  ];
}

/** The synthetic camera's lavfi filtergraph (see syntheticCameraArgs): its picture, before any encoder. */
export function syntheticCameraGraph(opts: Pick<SyntheticCameraOptions, 'cameraName' | 'encode' | 'startEpochMs' | 'fontFile' | 'nameFontFile' | 'realtime' | 'ptz'>): string {
  const { encode } = opts;
  const W = encode.width;
  const H = encode.height;
  const sceneScale = opts.ptz?.sceneScale ?? 1;
  const clockFont = fontOption(opts.fontFile, 'Monospace');
  const nameFont = fontOption(opts.nameFontFile ?? opts.fontFile, 'Sans');
  const box = Math.max(8, Math.round(H / 8 / 2) * 2);
  const nameSize = Math.max(10, Math.round(H / 16));
  const clockSize = Math.max(9, Math.round(H / 22));
  const margin = Math.max(4, Math.round(H / 40));

  const timeStage = [
    filter('color', { c: '0x1b3a57', s: `${W * sceneScale}x${H * sceneScale}`, r: encode.frameRate }),
    // Pinned, or negotiation picks yuva420p for the overlays and the code branch comes out transparent.
    filter('format', { pix_fmts: 'yuv420p' }),
    ...(opts.realtime ? [filter('realtime')] : []),
    filter('settb', { expr: '1/1000' }),
    filter('setpts', { expr: opts.startEpochMs === undefined ? 'round(time(0)*1000)' : `PTS+${Math.round(opts.startEpochMs)}` }),
  ];
  const layout = captureCodeLayout(W, H);
  const ptz = opts.ptz ? ptzSceneAndWindow(opts.ptz, W, H, clockFont) : { scene: [], window: [] };
  const scene = [
    // A grid gives the picture detail that moves nowhere, so motion and blocking are easy to see.
    filter('drawgrid', { w: Math.round(W / 8), h: Math.round(H / 6), t: 1, c: '0x5a7d9a@0.6' }),
    ...ptz.scene,
  ];
  const moving = filter('overlay', {
    // One lap across in 12 s, down-and-up in 8 s: positions depend on absolute time only.
    x: `(main_w-overlay_w)*(0.5+0.5*sin(2*PI*t/12))`,
    y: `(main_h-overlay_h)*(0.5+0.5*sin(2*PI*t/8))`,
    eof_action: 'repeat',
  });
  const labels = [
    filter('drawtext', {
      ...nameFont,
      expansion: 'none',
      text: opts.cameraName,
      fontsize: nameSize,
      fontcolor: 'white',
      box: 1,
      boxcolor: 'black@0.55',
      boxborderw: 4,
      x: margin,
      y: margin,
    }),
    filter('drawtext', {
      ...clockFont,
      text: '%{pts:gmtime:0}.%{eif:mod(round(t*1000),1000):d:3} UTC',
      fontsize: clockSize,
      fontcolor: 'white',
      box: 1,
      boxcolor: 'black@0.55',
      boxborderw: 4,
      x: margin,
      y: margin * 2 + nameSize + 8,
    }),
  ];
  // Back to a 1/fps time base: left in milliseconds, ffmpeg spends ~2.7 s probing the frame rate
  // of the lavfi input (in real time, when realtime) before the first byte.
  const restamp = [filter('settb', { expr: `1/${encode.frameRate}` }), filter('setpts', { expr: 'N' })];

  const graph: string[] = [];
  graph.push(chain([], [filter('color', { c: '0xf0a030', s: `${box}x${box}`, r: 1 }), filter('format', { pix_fmts: 'yuv420p' }), filter('trim', { end_frame: 1 })], ['mover']));
  if (layout) {
    graph.push(chain([], [...timeStage, filter('split')], ['bg', 'cc']));
    graph.push(
      chain(
        ['cc'],
        [
          filter('crop', { w: CODE_COLS, h: CODE_ROWS, x: 0, y: 0 }),
          filter('geq', { lum: captureCodeExpression(), cb: 128, cr: 128 }),
          filter('scale', { w: CODE_COLS * layout.cell, h: CODE_ROWS * layout.cell, flags: 'neighbor' }),
        ],
        ['code'],
      ),
    );
    graph.push(chain(['bg'], scene, ['scene']));
    graph.push(chain(['scene', 'mover'], [moving, ...ptz.window, ...labels], ['labelled']));
    graph.push(chain(['labelled', 'code'], [filter('overlay', { x: layout.x, y: layout.y }), ...restamp], ['out0']));
  } else {
    graph.push(chain([], [...timeStage, ...scene], ['scene']));
    graph.push(chain(['scene', 'mover'], [moving, ...ptz.window, ...labels, ...restamp], ['out0']));
  }

  return graph.join(';');
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
 * 9.98–10.01, and more with a camera that stamps pictures as they arrive). Without it a camera at
 * the template's very rate was transcoded now and then — three pictures (300 ms at 10 fps) of
 * decoder and frame-rate filter on the ship, and an encoder's CPU.
 */
const FRAME_RATE_TOLERANCE = 0.02;

/**
 * Whether a camera's own stream can go up the link untouched: H.264 (H.265 never: browsers' MSE
 * does not take it), 4:2:0 8-bit if known, exactly the template's size, a known frame rate no higher
 * than the template's (within FRAME_RATE_TOLERANCE), and a bitrate no higher than the template's
 * when the input declares one.
 */
export function canCopy(probe: InputProbe, encode: EncodeSpec): boolean {
  return (
    probe.codec === 'h264' &&
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
    ...h264EncodeArgs(encode),
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
 * A live stream of a camera session's pictures (stdin) in the template's size, rate and bitrate;
 * `cameraFps`, the session's measured rate, if known. Nothing held back on the way: 10 ms from the
 * session's picture to the packager against 310 ms with frame threads and the frame-rate filter
 * (the live-video benchmark's rig with LIVE_RIG_AGES=1, a camera at the template's 10 fps).
 */
export function sessionTranscodeArgs(encode: EncodeSpec, output: EncoderOutput = 'flv', cameraFps?: number): string[] {
  return [
    ...FFMPEG_GLOBAL_ARGS,
    ...SESSION_INPUT_OPTIONS,
    ...DECODE_AT_ONCE_ARGS,
    '-i', 'pipe:0',
    '-map', '0:v:0',
    ...NO_OTHER_STREAMS,
    ...transcodeVideoArgs(encode, cameraFps),
    ...outputArgs(output),
  ];
}
