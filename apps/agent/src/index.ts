export { ShipAgent, AGENT_VERSION, type AgentConfig, type AgentOptions, type LinkStatusSource } from './agent.ts';
export { type CameraConfig, probeCamera, SYNTHETIC_RETENTION_MS } from './cameras.ts';
export { readAgentConfig, readFleetFile, type FleetFile } from './config.ts';
export { startFleet, type FleetOptions, type SimulatedShip } from './fleet.ts';
export { PlaybackStreams, type PlaybackLink, type PlaybackStats, type PlaybackStreamsOptions } from './playback/playback-streams.ts';
export { ShipRecorder, type ShipRecorderOptions } from './recorder/ship-recorder.ts';
export * from './link/index.ts';
