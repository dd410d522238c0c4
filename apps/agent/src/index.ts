// The ship agent as a package: the agent itself, its configuration, the camera-source interface a
// kind of camera plugs in with (the simulator's synthetic camera is one), and the building blocks
// such a kind uses to end in the agent's encoder, stream formats and recordings.
export { ShipAgent, AGENT_VERSION, type AgentConfig, type AgentEventsOptions, type AgentOptions, type LinkStatusSource } from './agent.ts';
export { type CameraConfig, type OnvifSettings, type PtzCameraConfig, cameraDirName, probeCamera } from './cameras.ts';
export { type AgentFileConfig, parseCameras, readAgentConfig } from './config.ts';
export {
  type CameraContext,
  type CameraKind,
  type CameraRecording,
  type CameraSource,
  type LiveRequest,
  type LiveStart,
  NoRecording,
  type PlaybackRun,
  type PlaybackRunRequest,
  type RecordingContext,
  type RecordingStore,
} from './camera-source.ts';
export { CameraSources, type CameraSourcesOptions, kindOf } from './camera-sources.ts';
export { SegmentRecording, UrlCamera, type UrlCameraOptions, urlCameras } from './url-camera.ts';
export { CameraSessions } from './media/camera-session.ts';
export { type Encoder, type EncoderExit, type EncoderOptions, startEncoder } from './media/encoder.ts';
export {
  type EncoderOutput,
  FFMPEG_GLOBAL_ARGS,
  FLV_OUTPUT_ARGS,
  FMP4_OUTPUT_ARGS,
  type InputProbe,
  LIVE_SOUND,
  NO_OTHER_STREAMS,
  SOUND_OUTPUT_FD,
  SPEAKER_INPUT_FD,
  type SoundSpec,
  av1EncodeArgs,
  h264EncodeArgs,
  keyframeSeconds,
  videoEncodeArgs,
  outputArgs,
  soundOutputArgs,
} from './media/ffmpeg-args.ts';
export { type FilterOptions, chain, filter } from './media/filtergraph.ts';
export { FlvToFmp4, type Fmp4Source } from './media/flv-packager.ts';
export { ffmpegVideoCodecs } from './media/encoders.ts';
export { Fmp4Reader, type Fmp4Unit } from './media/fmp4.ts';
export { type LiveLink, LiveStreams, type LiveStreamsOptions, liveReader } from './media/live-streams.ts';
export { type Shot, ShotError, type ShotSize, jpegSize, shootInput } from './pictures/capture.ts';
export { PlaybackStreams, type PlaybackLink, type PlaybackStats, type PlaybackStreamsOptions } from './playback/playback-streams.ts';
export { beforeOutput, paceArgs, playbackPace } from './playback/playback-args.ts';
export { type PtzBackend, PtzError } from './ptz/ptz-backend.ts';
export { ShipRecorder, type ShipRecorderOptions } from './recorder/ship-recorder.ts';
export { RunLog, type RunLogOptions } from './recorder/run-log.ts';
export { LinkMeter, type LinkMeterOptions, SEGMENT_BYTES } from './uplink/link-meter.ts';
export { pingShore } from './uplink/link-pings.ts';
export { type UplinkClass, type UplinkObserver, UplinkScheduler } from './uplink/scheduler.ts';
export {
  type AnalysisFrame,
  type CameraAnalysisStatus,
  CameraAnalyser,
  type Detection,
  type Detector,
  DEFAULT_TIMING,
  type EventAnalysis,
  type EventAnalysisOptions,
  type EventSink,
  type FrameFeed,
  type FramesRequest,
  MemoryEventSink,
  centernetDir,
  eventPicture,
  frameSize,
  loadDetector,
  rawFrameOutputArgs,
  startEventAnalysis,
  startRawFrames,
} from './events/analyser/index.ts';
