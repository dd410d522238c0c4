import { Type, type Static } from 'typebox';
import { RecorderStorage } from '../link/control.ts';

export const ShipStatusQuery = Type.Object(
  {
    /** Limit the answer to these ships; absent means every ship the user may see. */
    shipIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 1000 })),
  },
  { additionalProperties: false },
);

export const ShipStatusEntry = Type.Object({
  shipId: Type.String(),
  shipName: Type.String(),
  /** Link type, OFFLINE when the agent is not connected. */
  status: Type.String(),
  quality: Type.Integer(),
  duplex: Type.String(),
  online: Type.Boolean(),
  updatedAt: Type.Union([Type.Integer(), Type.Null()]),
  /** What the ship's recorder can keep, as its agent last reported it (absent: not reported). */
  storage: Type.Optional(RecorderStorage),
});
export type ShipStatusEntry = Static<typeof ShipStatusEntry>;

export const CameraStatusEntry = Type.Object({
  cameraId: Type.String(),
  channelId: Type.String(),
  shipId: Type.String(),
  instanceId: Type.String(),
  online: Type.Boolean(),
  recording: Type.Boolean(),
  recordingSince: Type.Union([Type.Integer(), Type.Null()]),
});
export type CameraStatusEntry = Static<typeof CameraStatusEntry>;
