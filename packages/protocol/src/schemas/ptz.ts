import { Type, type Static } from 'typebox';

/**
 * REST schemas of PTZ control (issue 15; spec §8 "preset point set/delete succeeded or failed"),
 * all under `/api/v1/cctv/ptz/{shipId}/{cameraId}/…`: move and stop (continuous pan/tilt/zoom while
 * a control is held), the presets (list, set with a name, go to, delete). Who steers a camera is
 * published on STOMP `/ptz/{cameraId}` (PtzEvent): every cell watching it says "moved by X".
 */

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$', description });
const Speed = (description: string) => Type.Number({ minimum: -1, maximum: 1, description });

export const PtzCameraParams = Type.Object({ shipId: Id('Ship'), cameraId: Id('Camera (a PTZ one: its channel type is ptz)') });
export const PtzPresetParams = Type.Object({ shipId: Id('Ship'), cameraId: Id('Camera'), presetId: Id('Preset') });

export const PtzMoveBody = Type.Object(
  {
    pan: Speed('Pan speed, −1 (left) … 1 (right)'),
    tilt: Speed('Tilt speed, −1 (down) … 1 (up)'),
    zoom: Speed('Zoom speed, −1 (out) … 1 (in)'),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 200, maximum: 10_000, description: 'The camera stops by itself after this long without another move; default 1500 ms' })),
  },
  { additionalProperties: false },
);
export type PtzMoveBody = Static<typeof PtzMoveBody>;

export const PtzPresetBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 64, description: 'Preset name' }) },
  { additionalProperties: false },
);

export const PtzPresetSchema = Type.Object({ presetId: Type.String(), name: Type.String() });
export type PtzPresetView = Static<typeof PtzPresetSchema>;
export const PtzPresetListSchema = Type.Array(PtzPresetSchema);

/** What a command answers: who steers the camera now, and when (the last command wins). */
export const PtzCommandAnswerSchema = Type.Object({ by: Type.String(), at: Type.Integer() });
export type PtzCommandAnswer = Static<typeof PtzCommandAnswerSchema>;

export const PTZ_ACTIONS = ['move', 'stop', 'preset'] as const;
export type PtzAction = (typeof PTZ_ACTIONS)[number];

/** STOMP `/ptz/{cameraId}`: someone steered the camera (the last command wins). */
export interface PtzEvent {
  shipId: string;
  cameraId: string;
  action: PtzAction;
  /** The operator's display name. */
  by: string;
  userId: string;
  /** Epoch ms on shore. */
  at: number;
}

/** How long a cell says "moved by X" after the last command it heard. */
export const PTZ_MOVED_BY_MS = 4_000;
