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
import { type SyntheticActors, actorChains } from './synthetic-actors.ts';
import {
  type EncoderOutput,
  FFMPEG_GLOBAL_ARGS,
  type FilterOptions,
  NO_OTHER_STREAMS,
  SPEAKER_INPUT_FD,
  type SoundSpec,
  chain,
  filter,
  videoEncodeArgs,
  outputArgs,
  soundOutputArgs,
} from '@ship-cctv/agent';

/**
 * The synthetic camera's picture and sound as ffmpeg arguments (pure: no I/O, no clock): a lavfi
 * graph that is a function of absolute time, encoded by the agent's own H.264 encoder settings and
 * written in the agent's stream formats, so it goes through the agent exactly like a real camera.
 */

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
  /** People walking and boats passing now and then (synthetic-actors.ts). Default none. */
  actors?: SyntheticActors;
}


export interface SyntheticSoundOptions {
  spec: SoundSpec;
  /**
   * Mix in PCM from fd SPEAKER_INPUT_FD (s16le mono at spec.sampleRate, written in real time by
   * a SpeakerFeed pump): the ship's speaker heard by the camera's microphone.
   */
  speakerInput?: boolean;
}


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
  if (!sound) return [...FFMPEG_GLOBAL_ARGS, '-f', 'lavfi', '-i', graph, ...duration, ...NO_OTHER_STREAMS, ...videoEncodeArgs(opts.encode), ...outputArgs(opts.output)];
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
    ...videoEncodeArgs(opts.encode),
    ...outputArgs(opts.output),
    ...duration,
    ...soundOutputArgs(sound.spec, sound.speakerInput ? '[sound]' : '0:a:0'),
  ];
}

/** The synthetic camera's lavfi filtergraph (see syntheticCameraArgs): its picture, before any encoder. */
export function syntheticCameraGraph(opts: Pick<SyntheticCameraOptions, 'cameraName' | 'encode' | 'startEpochMs' | 'fontFile' | 'nameFontFile' | 'realtime' | 'ptz' | 'actors'>): string {
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

  // The square over the scene, the actors (when asked) over both, then the PTZ window and the labels.
  const movingThings = (out: string[], after: string[]): string[] => {
    if (!opts.actors) return [chain(['scene', 'mover'], [moving, ...ptz.window, ...labels, ...after], out)];
    return [
      chain(['scene', 'mover'], [moving], ['moved']),
      ...actorChains(opts.actors, H * sceneScale, 'moved', 'acted'),
      chain(['acted'], [...ptz.window, ...labels, ...after], out),
    ];
  };
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
    graph.push(...movingThings(['labelled'], []));
    graph.push(chain(['labelled', 'code'], [filter('overlay', { x: layout.x, y: layout.y }), ...restamp], ['out0']));
  } else {
    graph.push(chain([], [...timeStage, ...scene], ['scene']));
    graph.push(...movingThings(['out0'], restamp));
  }

  return graph.join(';');
}

