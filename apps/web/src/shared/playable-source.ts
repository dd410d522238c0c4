/**
 * A channel's camera as the play grid receives it from the source tree (spec §3 "Camera or
 * source"): everything a cell needs to start the stream and title itself without another lookup.
 */
export interface PlayableSource {
  cameraId: string;
  /** Shown as the cell's title: the channel name, with the camera name for multi-camera channels. */
  title: string;
  channelId: string;
  shipId: string;
  /** The ship's `name` (its STOMP destinations are built from it). */
  shipName: string;
  /** enName + name (spec §3 displayName). */
  shipDisplayName: string;
  orgId: string;
  orgName: string;
  /** Seconds to expect before the first frame, from the organisation's wait time. */
  waitTime: number;
  componentType: 'live';
  /** The camera's type (spec §3: ipc, ptz, …): a `ptz` camera's cell gets the PTZ pad. Absent: unknown. */
  cameraType?: string;
  /** The /mediaList instance the camera's status comes on (cameraSource); absent: the ship's name. */
  instanceId?: string;
}
