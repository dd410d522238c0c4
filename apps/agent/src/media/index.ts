export { type Encoder, type EncoderExit, type EncoderOptions, type EncoderState, runningEncoderCount, startEncoder } from './encoder.ts';
export {
  FFMPEG_GLOBAL_ARGS,
  FMP4_OUTPUT_ARGS,
  type InputProbe,
  type SyntheticCameraOptions,
  type UrlCameraOptions,
  type UrlKind,
  canCopy,
  captureCodeExpression,
  h264EncodeArgs,
  syntheticCameraArgs,
  urlCameraArgs,
  urlKind,
} from './ffmpeg-args.ts';
export { Fmp4Reader, type Fmp4Unit } from './fmp4.ts';
export { type FontPurpose, fontsFor, needsCjkFont, resolveFontFile } from './fonts.ts';
export { type LiveLink, LiveStreams, type LiveStreamsOptions } from './live-streams.ts';
export { parseProbeOutput, probeInput } from './probe.ts';
