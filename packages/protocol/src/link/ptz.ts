import { Type, type Static } from 'typebox';
import { CameraId, StreamId, Text } from './common.ts';

/**
 * Pan/tilt/zoom (kind `ptz`, JSON only): one request per command, routed by `requestId`.
 *
 * The contract the PTZ feature builds on. No agent handles it yet: an agent lists `ptz` in its
 * hello capabilities once it does, and shore sends no PTZ request to a ship that has not.
 */
const Axis = Type.Number({ minimum: -1, maximum: 1 });

export const PtzShoreMessages = [
  /**
   * Move at the given speeds (−1…1 per axis) for at most `timeoutMs`: the camera stops by itself
   * even when the stop is late on a slow link.
   */
  Type.Object({
    type: Type.Literal('ptz.move'),
    requestId: StreamId,
    cameraId: CameraId,
    pan: Axis,
    tilt: Axis,
    zoom: Axis,
    timeoutMs: Type.Integer({ minimum: 1, maximum: 10_000 }),
  }),
  Type.Object({ type: Type.Literal('ptz.stop'), requestId: StreamId, cameraId: CameraId }),
] as const;

export const PtzAgentMessages = [
  Type.Object({ type: Type.Literal('ptz.done'), requestId: StreamId }),
  Type.Object({ type: Type.Literal('ptz.failed'), requestId: StreamId, message: Text }),
] as const;

export const ShorePtzMessage = Type.Union([...PtzShoreMessages]);
export type ShorePtzMessage = Static<typeof ShorePtzMessage>;
export const AgentPtzMessage = Type.Union([...PtzAgentMessages]);
export type AgentPtzMessage = Static<typeof AgentPtzMessage>;
