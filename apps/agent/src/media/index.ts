export { type Encoder, type EncoderExit, type EncoderOptions, type EncoderState, runningEncoderCount, startEncoder } from './encoder.ts';
export {
  type EncoderOutput,
  FFMPEG_GLOBAL_ARGS,
  FLV_OUTPUT_ARGS,
  FMP4_OUTPUT_ARGS,
  type InputProbe,
  LIVE_SOUND,
  type SoundSpec,
  type SyntheticCameraOptions,
  type UrlCameraOptions,
  type UrlKind,
  canCopy,
  captureCodeExpression,
  h264EncodeArgs,
  outputArgs,
  syntheticCameraArgs,
  urlCameraArgs,
  urlCameraFrameRate,
  urlKind,
} from './ffmpeg-args.ts';
export { type FlvPackagerOptions, FlvToFmp4, type Fmp4Source } from './flv-packager.ts';
export { Fmp4Reader, type Fmp4Unit } from './fmp4.ts';
export { type FontPurpose, fontsFor, needsCjkFont, resolveFontFile } from './fonts.ts';
export { type LiveLink, LiveStreams, type LiveStreamsOptions } from './live-streams.ts';
export { parseProbeOutput, probeInput } from './probe.ts';
export { type PcmSink, SPEAKER_SAMPLE_RATE, SpeakerFeed, SpeakerFeeds, type SpeakerPump } from './speaker-feed.ts';
