export { MsePlayer } from './mse-player.ts';
export { MediaSurface, browserMediaSource } from './media-surface.ts';
export { MediaSocket, mediaSocketUrl } from './media-socket.ts';
export type { MediaSocketHandlers } from './media-socket.ts';
export type { MediaSurfaceHooks, MediaSurfaceOptions } from './media-surface.ts';
export { AppendQueue } from './append-queue.ts';
export type { AppendQueueHooks, QueueOp, SourceBufferLike } from './append-queue.ts';
export { backoffDelay, type BackoffRange } from '@ship-cctv/protocol';
export { decideLiveEdge, toRanges, trimRange } from './live-edge.ts';
export { autoLatencyTargetMs, frameDurationMs, latencyTargetMs } from './latency-target.ts';
export type { LatencyTarget } from './latency-target.ts';
export type { LiveEdgeDecision, LiveEdgeInput, Ranges } from './live-edge.ts';
export { interpretServerMessage } from './server-events.ts';
export type { ServerEffect } from './server-events.ts';
export { bufferedAhead, decidePlaybackHead, landingFor, shownRecordedTime } from './playback-head.ts';
export { SlidingRate, stallVerdict } from './watchdog.ts';
export type { StallInput, StallVerdict } from './watchdog.ts';
export type {
  CodecInfo,
  MediaSourceConstructor,
  MediaSourceLike,
  MsePlayerEventMap,
  MsePlayerOptions,
  PlaybackEventMap,
  NoticeInfo,
  PlaybackPosition,
  PlayerCommand,
  PlayerError,
  PlayerErrorKind,
  PlayerEventMap,
  PlayerState,
  PlayerStats,
  SocketConstructor,
  SocketLike,
  StatusInfo,
} from './types.ts';
export { framePlayerSupported } from './frames/supported.ts';
export { PROBE_CODECS, mseDecoders, webCodecsDecoders } from './decoders.ts';
export type { MediaSourceProbe, VideoDecoderProbe } from './decoders.ts';
export type { LivePlayer } from './types.ts';
