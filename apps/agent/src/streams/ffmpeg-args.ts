import { existsSync } from 'node:fs';
import { CODE_BLACK, CODE_COLS, CODE_DATA_BITS, CODE_DATA_START, CODE_PARITY_BITS, CODE_PARITY_START, CODE_WHITE, type EncodeSpec, captureCodeLayout } from '@ship-cctv/protocol';

/**
 * Pure builders of ffmpeg command lines for the ship's cameras. Every stream leaves as H.264
 * (baseline, for the widest browser support) in fragmented MP4 with one fragment per frame and a
 * one-second GOP, so shore can start a joining viewer at the latest keyframe.
 */

export const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
] as const;

/** The first installed font of the candidates; undefined lets fontconfig choose. */
export function findFont(exists: (path: string) => boolean = existsSync): string | undefined {
  return FONT_CANDIDATES.find((f) => exists(f));
}

/** The H.264 + fragmented MP4 output half of every command. */
export function h264Output(encode: EncodeSpec): string[] {
  const kbps = Math.max(16, Math.round(encode.bitrateKbps));
  return [
    '-c:v', 'libx264',
    '-preset', 'ultrafast',
    '-tune', 'zerolatency',
    '-profile:v', 'baseline',
    '-pix_fmt', 'yuv420p',
    '-g', String(encode.frameRate),
    '-keyint_min', String(encode.frameRate),
    '-sc_threshold', '0',
    '-b:v', `${kbps}k`,
    '-maxrate', `${kbps}k`,
    '-bufsize', `${kbps * 2}k`,
    // Without a global header the avcC box of the init segment comes out empty.
    '-flags:v', '+global_header',
    '-an',
    '-f', 'mp4',
    '-movflags', '+frag_every_frame+empty_moov+default_base_moof',
    'pipe:1',
  ];
}

const bit = (b: string) => `mod(floor(ld(0)/pow(2,${b})),2)`;

/**
 * A geq expression drawing the capture-code grid (packages/protocol/src/capture-code.ts) for the
 * absolute time startEpochMs + T: ld(0) holds the epoch ms, ld(1) the cell index.
 */
export function captureCodeExpr(startEpochMs: number, cell: number): string {
  const W = CODE_WHITE;
  const B = CODE_BLACK;
  const dataEnd = CODE_DATA_START + CODE_DATA_BITS;
  const parityTerms = Array.from({ length: CODE_DATA_BITS / CODE_PARITY_BITS }, (_, j) => bit(`ld(1)-${CODE_PARITY_START}+${j * CODE_PARITY_BITS}`)).join('+');
  return [
    `st(0,floor(${Math.floor(startEpochMs)}+T*1000))`,
    `st(1,floor(Y/${cell})*${CODE_COLS}+floor(X/${cell}))`,
    `if(lt(ld(1),${CODE_DATA_START}),if(eq(ld(1),0),${W},${B}),` +
      `if(lt(ld(1),${dataEnd}),if(${bit(`${dataEnd - 1}-ld(1)`)},${W},${B}),` +
      `if(lt(ld(1),${CODE_PARITY_START + CODE_PARITY_BITS}),if(mod(${parityTerms},2),${W},${B}),` +
      `if(eq(ld(1),${CODE_PARITY_START + CODE_PARITY_BITS}),${B},${W}))))`,
  ].join(';');
}

/** Escapes text for drawtext's `text` option inside a quoted filter argument. */
function drawtextText(text: string): string {
  return text.replace(/\\/g, '\\\\\\\\').replace(/'/g, "'\\\\''").replace(/:/g, '\\\\:').replace(/%/g, '\\\\%');
}

export interface SyntheticCameraOptions {
  cameraName: string;
  encode: EncodeSpec;
  /** The absolute time of the first frame (epoch ms); the picture is a function of absolute time. */
  startEpochMs: number;
  fontFile?: string | undefined;
  /** Pace output at wall-clock speed (live); false renders as fast as possible (recorder, tests). */
  realtime: boolean;
  /** Seconds to render; absent runs until stopped. */
  durationSeconds?: number;
}

/**
 * The built-in synthetic camera: a dark, sensor-noisy field with a box moving with absolute
 * time, the camera name, a UTC clock, and the capture-code grid in the bottom-left corner.
 */
export function syntheticCameraArgs(o: SyntheticCameraOptions): string[] {
  const { width, height, frameRate } = o.encode;
  const layout = captureCodeLayout(width, height);
  const startS = o.startEpochMs / 1000;
  const font = o.fontFile ? `fontfile=${o.fontFile}:` : '';
  const big = Math.max(10, Math.round(height / 18));
  const small = Math.max(8, Math.round(height / 24));
  const re = o.realtime ? ['-re'] : [];
  const box = Math.max(8, Math.round(height / 8));
  const graph = [
    // Temporal noise, as a real sensor has: without it the encoder needs a tenth of the bitrate
    // and the emulated links would never see a realistic load. Text and code are drawn on top.
    `[0:v]noise=alls=10:allf=t,drawbox=x='mod((${startS}+t)*iw/10,iw-${box})':y='ih/2-${box}+mod((${startS}+t)*ih/7,ih/3)':w=${box}:h=${box}:color=orange@1:t=fill,` +
      `drawtext=${font}text='${drawtextText(o.cameraName)}':x=${2 * small}:y=${small}:fontsize=${big}:fontcolor=white,` +
      `drawtext=${font}text='%{pts\\:gmtime\\:${Math.floor(startS)}\\:%Y-%m-%d %H\\\\\\:%M\\\\\\:%S} UTC':x=${2 * small}:y=${small * 2 + big}:fontsize=${small}:fontcolor=white[bg]`,
  ];
  const inputs = [...re, '-f', 'lavfi', '-i', `color=c=0x203040:s=${width}x${height}:r=${frameRate}`];
  if (layout) {
    inputs.push(...re, '-f', 'lavfi', '-i', `color=c=black:s=${layout.cols * layout.cell}x${layout.rows * layout.cell}:r=${frameRate}`);
    graph.push(`[1:v]geq=lum='${captureCodeExpr(o.startEpochMs, layout.cell)}':cb=128:cr=128[code]`);
    graph.push(`[bg][code]overlay=x=${layout.x}:y=${layout.y},format=yuv420p[out]`);
  } else {
    graph.push('[bg]format=yuv420p[out]');
  }
  return [
    '-hide_banner', '-nostdin', '-loglevel', 'error',
    ...inputs,
    '-filter_complex', graph.join(';'),
    '-map', '[out]',
    ...(o.durationSeconds !== undefined ? ['-t', String(o.durationSeconds)] : []),
    ...h264Output(o.encode),
  ];
}

export interface ProbedVideo {
  codec: string;
  width: number;
  height: number;
  frameRate: number;
}

/** Whether a camera's own stream can be relayed as it is (no transcoding on the ship). */
export function fitsTemplate(probe: ProbedVideo | undefined, encode: EncodeSpec): boolean {
  return probe !== undefined && probe.codec === 'h264' && probe.width === encode.width && probe.height === encode.height && probe.frameRate <= encode.frameRate + 0.01;
}

/**
 * A real camera by any input URL ffmpeg opens: copied when it already fits the definition,
 * otherwise scaled and re-encoded (H.265 cameras are always transcoded to H.264 on the ship).
 */
export function urlCameraArgs(o: { url: string; encode: EncodeSpec; probe?: ProbedVideo | undefined; realtime?: boolean }): string[] {
  const input: string[] = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-fflags', 'nobuffer', '-flags', 'low_delay'];
  if (o.url.startsWith('rtsp://') || o.url.startsWith('rtsps://')) input.push('-rtsp_transport', 'tcp');
  if (o.realtime) input.push('-re');
  input.push('-i', o.url, '-map', '0:v:0');
  if (fitsTemplate(o.probe, o.encode)) {
    return [...input, '-c:v', 'copy', '-an', '-f', 'mp4', '-movflags', '+frag_every_frame+empty_moov+default_base_moof', 'pipe:1'];
  }
  const { width, height, frameRate } = o.encode;
  return [...input, '-vf', `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,fps=${frameRate}`, ...h264Output(o.encode)];
}
