// The ship simulator: what the demo, the tests and the benchmarks run ships with. None of it is
// part of the product (apps/agent knows nothing of it); it plugs into the agent through the
// agent's camera-source interface and sits between the agent and shore as a TCP proxy.
export * from './link/index.ts';
export { type FleetOptions, type SimulatedShip, eventCamerasOf, fleetLinkSchedule, startFleet, withRtspCamera } from './fleet.ts';
export { type FleetFile, readFleetFile } from './fleet-file.ts';
export {
  SYNTHETIC_RETENTION_MS,
  SYNTHETIC_SOURCE,
  SyntheticCamera,
  type SyntheticCamerasOptions,
  shootSynthetic,
  syntheticCameras,
} from './camera/synthetic-camera.ts';
export {
  PTZ_CROP_TARGET,
  type PtzStage,
  type SyntheticCameraOptions,
  type SyntheticSoundOptions,
  captureCodeExpression,
  syntheticCameraArgs,
  syntheticCameraGraph,
  syntheticSoundGraph,
} from './camera/synthetic-picture.ts';
export { type SyntheticPlaybackOptions, syntheticPlaybackArgs } from './camera/synthetic-playback.ts';
export { SyntheticRecorder, SyntheticRecording } from './camera/synthetic-recording.ts';
export { demoGaps } from './camera/demo-gaps.ts';
export { ACTOR_SLOT_S, type ActorInSlot, SAIL_S, type SyntheticActors, WALK_S, actorAt, actorOfSlot, actorSeed, walkerImagePath } from './camera/synthetic-actors.ts';
export { type CameraFonts, type FontPurpose, fontsFor, needsCjkFont, resolveFontFile } from './camera/fonts.ts';
export { type PcmSink, SPEAKER_SAMPLE_RATE, SpeakerFeed, type SpeakerPump } from './camera/speaker-feed.ts';
export { SyntheticPtz, type SyntheticPtzOptions, freePort } from './ptz/synthetic-ptz.ts';
export { LIGHT_SHIP_CAPABILITIES, LightFleet, type LightFleetOptions, LightShip, type LightShipEvents, type LightShipOptions } from './light-ship.ts';
