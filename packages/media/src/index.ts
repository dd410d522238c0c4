export { type Box, Reader, boxes, findBox, findBoxes, fourcc } from './boxes.ts';
export {
  HEVC_NAL_AUD,
  HEVC_NAL_PPS,
  HEVC_NAL_PREFIX_SEI,
  HEVC_NAL_SPS,
  HEVC_NAL_VPS,
  type HevcSps,
  hevcConfigRecord,
  hevcNalType,
  hevcParameterSets,
  isHevcKeyframe,
  isHevcSlice,
  readHevcSps,
} from './hevc.ts';
export { ByteQueue } from './byte-queue.ts';
export { RbspReader, unescapeRbsp } from './rbsp.ts';
export { Fmp4Error, type Fmp4ErrorCode } from './errors.ts';
export {
  type FragmentInfo,
  type MediaFragment,
  type TrackRun,
  isInitSegment,
  isSyncSample,
  readBaseDecodeTime,
  readFirstCompositionOffset,
  readFirstSampleFlags,
  readSoundTrackIds,
  readTrackBytes,
  readTimescale,
  readVideoTrack,
  shiftDecodeTimes,
} from './fragment.ts';
export {
  type InitSegment,
  type MoovOptions,
  type TrackInfo,
  type TrackKind,
  isCompleteInitSegment,
  mimeFor,
  parseInitSegment,
} from './init-segment.ts';
export { PRFT_ENCODER_OUTPUT, type ProducerTime, producerTimeBox, readProducerTime, withProducerTime, withoutProducerTime } from './producer-time.ts';
export { stripSoundFromFragment, stripSoundFromInit } from './strip-sound.ts';
export { DEFAULT_MAX_BOX_BYTES, type Fmp4SplitterOptions, type Fmp4Unit, Fmp4Splitter, type OtherBox } from './splitter.ts';
export {
  AUDIO_TRACK_ID,
  type AudioRun,
  type AudioTrackOptions,
  type FragmentOptions,
  type InitSegmentOptions,
  NON_SYNC_SAMPLE_FLAGS,
  SYNC_SAMPLE_FLAGS,
  TRACK_ID,
  box,
  concatBytes,
  fullBox,
  initSegment,
  mediaFragment,
  u32s,
} from './writer.ts';
export { type WholeFragments, wholeBoxesEnd, wholeFragments } from './whole-fragments.ts';
export { type VideoDefinition, codecFamily, videoDefinition } from './video-definition.ts';
export { MoofReader } from './moof-reader.ts';
export { type TrackSample, type VideoDecoderSetup, readTrackSamples, readVideoDecoderSetup } from './samples.ts';
