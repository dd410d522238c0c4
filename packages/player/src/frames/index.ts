export { FramePlayer, type FramePlayerOptions } from './frame-player.ts';
export { FrameSink, type DecoderLike, type FrameLike, type FrameSinkDeps, type FrameSinkEvents } from './frame-sink.ts';
export { PlayoutClock, type PlayoutClockOptions } from './playout-clock.ts';
export { framePlayerSupported } from './supported.ts';
