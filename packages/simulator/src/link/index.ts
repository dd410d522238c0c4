export {
  PROFILES,
  PROFILE_NAMES,
  MIN_QUEUE_BOUND_BYTES,
  MAX_QUEUE_BOUND_BYTES,
  profileByName,
  withOverrides,
  isOffline,
  rateKbps,
  roundTripMs,
  lossRate,
  serialisationMs,
  bytesIn,
  queueBoundBytes,
  segmentBytes,
  sampleDelayMs,
  sampleQuality,
  outageWindows,
  type LinkProfile,
  type LinkProfileName,
  type LinkDirection,
  type OutagePattern,
  type OutageWindow,
  type RandomOutages,
} from './profiles.ts';
export {
  LinkShaper,
  DEFAULT_DROP_AFTER_MS,
  type LinkControl,
  type LinkShaperOptions,
  type LinkShaperEvents,
  type LinkDirectionStats,
  type LinkLoss,
} from './shaper.ts';
export {
  LinkSchedule,
  demoScheduleFor,
  cycleLengthMs,
  phaseAt,
  type LinkPhase,
  type LinkScheduleSpec,
  type LinkScheduleOptions,
  type LinkState,
  type LinkScheduleEvents,
} from './schedule.ts';
export { CongestionWindow, LossDraw, LOSS_SEGMENT_BYTES } from './loss.ts';
export { ManualClock, systemClock, type Clock } from './clock.ts';
export { seededRandom, type RandomSource } from './random.ts';
