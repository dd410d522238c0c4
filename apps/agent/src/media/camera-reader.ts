import { AccessUnitJoiner, type VideoPacket } from './access-unit.ts';
import { parseAvcConfig } from './avc.ts';
import { startEncoder } from './encoder.ts';
import { cameraSessionArgs, urlKind } from './ffmpeg-args.ts';
import { FlvReader } from './flv.ts';

/**
 * What reads a URL camera for its camera session: a source of H.264 sequence headers and whole
 * pictures (length-prefixed NAL units, decode time in ms from the camera's clock). Two readers
 * give the same pictures:
 *
 * - `rtsp` (rtsp/reader.ts, the default for rtsp:// URLs): RTSP and RTP read in the agent, each
 *   picture handed on when its last packet (the marker bit) arrives.
 * - `ffmpeg`: ffmpeg copies the camera's stream into FLV; its H.264 parser ends a picture only when
 *   the next one begins, so each picture waits one frame interval. Reads any URL ffmpeg opens, and
 *   takes over an RTSP camera the `rtsp` reader cannot (`fallback`).
 */

export type CameraReaderKind = 'rtsp' | 'ffmpeg';

/** The codecs a camera session carries: H.264 (as FLV to its ffmpeg consumers) and H.265 (as hvc1 fragmented MP4). */
export type SessionCodec = 'h264' | 'h265';

export interface CameraReaderEnd {
  reason: string;
  /** The session cannot share this camera (H.265 …). */
  unsupported?: string;
  /** This reader cannot read the camera, the ffmpeg reader may (a codec or transport it lacks). */
  fallback?: string;
}

export interface CameraReaderEvents {
  /** An AVCDecoderConfigurationRecord (`h264`, the default) or HEVCDecoderConfigurationRecord (`h265`); the same one may come again. */
  onConfig(record: Buffer, codec?: SessionCodec): void;
  /** Something about the camera's stream an operator should know, while the reader goes on (said once per cause). */
  onProblem?(text: string): void;
  onPicture(picture: VideoPacket): void;
  /** Bytes read from the camera (or from ffmpeg). */
  onBytes(n: number): void;
  /** Once, unless stop() came first. */
  onEnd(end: CameraReaderEnd): void;
}

export interface CameraReaderOptions {
  ffmpegCommand: string;
  firstByteTimeoutMs: number;
}

export interface CameraReader {
  readonly kind: CameraReaderKind;
  /** Ends the reader; `reason` comes back as its end (a stall), none means a quiet stop. */
  stop(reason?: string): Promise<void>;
}

/** The reader setting: `auto` reads rtsp:// URLs with the rtsp reader, everything else with ffmpeg. */
export type CameraReaderSetting = CameraReaderKind | 'auto';

/** `AGENT_CAMERA_READER` (auto, rtsp, ffmpeg; unset = auto); throws on anything else. */
export function cameraReaderSetting(value: string | undefined): CameraReaderSetting {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'auto') return 'auto';
  if (v === 'rtsp' || v === 'ffmpeg') return v;
  throw new Error(`AGENT_CAMERA_READER must be auto, rtsp or ffmpeg, not "${value}"`);
}

/** Which reader a camera URL gets. Only rtsp:// can be read by the rtsp reader (not rtsps://). */
export function cameraReaderFor(url: string, setting: CameraReaderSetting): CameraReaderKind {
  if (setting === 'ffmpeg') return 'ffmpeg';
  return urlKind(url) === 'rtsp' && /^rtsp:\/\//i.test(url) ? 'rtsp' : 'ffmpeg';
}

/** ffmpeg copying the camera's H.264 into FLV (ffmpeg-args.ts cameraSessionArgs), joined into whole pictures. */
export function startFfmpegReader(url: string, opts: CameraReaderOptions, events: CameraReaderEvents): CameraReader {
  const reader = new FlvReader();
  let joiner: AccessUnitJoiner | undefined;
  let record: Buffer | undefined;
  let said: string | undefined;
  let quiet = false;
  const flush = () => {
    for (const p of joiner?.flush() ?? []) events.onPicture(p);
  };
  const encoder = startEncoder(cameraSessionArgs(url), {
    command: opts.ffmpegCommand,
    firstByteTimeoutMs: opts.firstByteTimeoutMs,
    onData: (chunk) => {
      if (quiet) return;
      events.onBytes(chunk.length);
      try {
        for (const item of reader.push(chunk)) {
          if (item.kind === 'config') {
            // An empty header (no parameter sets in the SDP): ffmpeg sends the real one in band later.
            if (item.record.length < 7 || record?.equals(item.record)) continue;
            flush();
            record = Buffer.from(item.record);
            joiner = new AccessUnitJoiner(parseAvcConfig(record).nalLengthSize);
            events.onConfig(record);
          } else if (item.kind === 'frame') {
            if (!joiner) continue; // before the first sequence header: not decodable anyway
            for (const p of joiner.push(item)) events.onPicture(p);
          }
        }
      } catch (err) {
        said = `camera stream unreadable: ${(err as Error).message}`;
        void encoder.stop();
      }
    },
    onExit: (info) => {
      if (quiet) return;
      // Closes a picture still waiting for slices (the stream ended).
      flush();
      const reason = said ?? (info.stderrTail ? `${info.reason}: ${info.stderrTail}` : info.reason);
      const unsupported =
        /not compatible with flv|codec .* not supported/i.test(info.stderrTail) && record === undefined
          ? `the camera's video cannot be shared: ${info.stderrTail.split('\n')[0] ?? ''}`.trim()
          : undefined;
      events.onEnd(unsupported ? { reason, unsupported } : { reason });
    },
  });
  return {
    kind: 'ffmpeg',
    async stop(reason) {
      if (reason === undefined) quiet = true;
      else said = reason;
      await encoder.stop();
    },
  };
}
