import { Type, type Static } from 'typebox';
import { CameraId, StreamId, Text } from './common.ts';

/**
 * Pan/tilt/zoom (kind `ptz`, JSON only): one request per command, routed by `requestId`; every
 * request is answered once (`ptz.done`, `ptz.presets` or `ptz.failed`). Messages are small (a move
 * is ~120 bytes): a held control costs a move per PTZ_MOVE_TIMEOUT_MS / 2 on the link.
 *
 * An agent lists `ptz` in its hello capabilities when one of its cameras is PTZ; shore sends no PTZ
 * request to a ship that has not.
 */
const Axis = Type.Number({ minimum: -1, maximum: 1 });

/** A preset's id: made by the ship (the synthetic camera) or the camera (ONVIF preset token). */
export const PtzPresetId = Type.String({ minLength: 1, maxLength: 64 });
export const PtzPresetName = Type.String({ minLength: 1, maxLength: 64 });
/** Presets one camera holds at most (ONVIF cameras commonly hold 128–256). */
export const PTZ_PRESETS_MAX = 256;
/**
 * How long a move lasts without a follow-up: the browser repeats a held move every half of it, so
 * a lost or late stop on a 600 ms round trip costs at most this much travel.
 */
export const PTZ_MOVE_TIMEOUT_MS = 1_500;

export const PtzPreset = Type.Object({ presetId: PtzPresetId, name: PtzPresetName });
export type PtzPreset = Static<typeof PtzPreset>;

/** Why a PTZ request failed: `notPtz` the camera cannot be steered, `notFound` no such preset. */
export const PTZ_FAILURES = ['unknownCamera', 'notPtz', 'notFound', 'full', 'failed'] as const;
export type PtzFailure = (typeof PTZ_FAILURES)[number];

export const PtzShoreMessages = [
  /**
   * Move at the given speeds (−1…1 per axis; zoom > 0 in) for at most `timeoutMs`: the camera
   * stops by itself even when the stop is late on a slow link. A new move replaces the last.
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
  /** The camera's presets (answer `ptz.presets`). */
  Type.Object({ type: Type.Literal('ptz.presetList'), requestId: StreamId, cameraId: CameraId }),
  /** Keep where the camera looks now as a preset named `name` (`presetId` given: overwrite that one). */
  Type.Object({ type: Type.Literal('ptz.presetSet'), requestId: StreamId, cameraId: CameraId, name: PtzPresetName, presetId: Type.Optional(PtzPresetId) }),
  Type.Object({ type: Type.Literal('ptz.presetGo'), requestId: StreamId, cameraId: CameraId, presetId: PtzPresetId }),
  Type.Object({ type: Type.Literal('ptz.presetRemove'), requestId: StreamId, cameraId: CameraId, presetId: PtzPresetId }),
] as const;

export const PtzAgentMessages = [
  /** The command was carried out (`preset`: the preset set). */
  Type.Object({ type: Type.Literal('ptz.done'), requestId: StreamId, preset: Type.Optional(PtzPreset) }),
  Type.Object({ type: Type.Literal('ptz.presets'), requestId: StreamId, presets: Type.Array(PtzPreset, { maxItems: PTZ_PRESETS_MAX }) }),
  Type.Object({ type: Type.Literal('ptz.failed'), requestId: StreamId, code: Type.Optional(Type.Enum(PTZ_FAILURES)), message: Text }),
] as const;

export const ShorePtzMessage = Type.Union([...PtzShoreMessages]);
export type ShorePtzMessage = Static<typeof ShorePtzMessage>;
export const AgentPtzMessage = Type.Union([...PtzAgentMessages]);
export type AgentPtzMessage = Static<typeof AgentPtzMessage>;
