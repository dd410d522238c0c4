import type { EncodeSpec, PlaybackSpeed } from '@ship-cctv/protocol';
import { beforeOutput, filter, paceArgs, playbackPace } from '@ship-cctv/agent';
import type { SyntheticActors } from './synthetic-actors.ts';
import { syntheticCameraArgs } from './synthetic-picture.ts';

export interface SyntheticPlaybackOptions {
  cameraName: string;
  fontFile: string | undefined;
  nameFontFile: string | undefined;
  encode: EncodeSpec;
  speed: PlaybackSpeed;
  /** Recorded time of the first frame and the end of the span played (epoch ms). */
  from: number;
  to: number;
  /** The camera's walkers and boats (synthetic-actors.ts). */
  actors?: SyntheticActors;
}

/**
 * The synthetic camera's recording of [from, to): the live camera's own picture (syntheticCameraArgs,
 * a function of absolute time) drawn at one frame per `speed / frameRate` seconds of recorded time,
 * so the burned-in clock shows recorded time advancing speed× faster; re-stamped to the played
 * frame rate, paced in real time (`realtime`) and cut after the last frame before `to`.
 */
export function syntheticPlaybackArgs(o: SyntheticPlaybackOptions): string[] {
  const pace = playbackPace(o.encode, o.speed);
  const recordedPerFrameMs = (1000 * o.speed) / pace.frameRate;
  const frames = Math.max(1, Math.ceil((o.to - o.from) / recordedPerFrameMs));
  const drawn = syntheticCameraArgs({
    cameraName: o.cameraName,
    fontFile: o.fontFile,
    nameFontFile: o.nameFontFile,
    encode: { ...o.encode, frameRate: pace.frameRate / o.speed, bitrateKbps: pace.bitrateKbps },
    startEpochMs: o.from,
    realtime: false,
    ...(o.actors ? { actors: o.actors } : {}),
  });
  const played = [
    filter('settb', { expr: `1/${pace.frameRate}` }),
    filter('setpts', { expr: 'N' }),
    // Declares the played frame rate to the encoder (its time base comes from it).
    filter('fps', { fps: pace.frameRate }),
    filter('realtime'),
  ].join(',');
  return beforeOutput(drawn, ['-vf', played, '-frames:v', String(frames), ...paceArgs(pace)]);
}

