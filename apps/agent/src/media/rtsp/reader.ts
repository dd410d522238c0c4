import { NAL_PPS, NAL_SPS, isSlice, joinNals, nalType, orderAccessUnit } from '../access-unit.ts';
import { avcConfigRecord, readSps } from '../avc.ts';
import type { CameraReader, CameraReaderEvents, CameraReaderOptions } from '../camera-reader.ts';
import { DecodeTimes } from './decode-times.ts';
import { openRtspStream } from './stream.ts';

/**
 * The camera session's RTSP reader: the camera's H.264 pictures as the ffmpeg reader gives them
 * (one sample per picture, 4-byte NAL lengths, AUD/SPS/PPS/SEI before the slices, each parameter
 * set once; the sequence header from the SDP's sprop-parameter-sets, or from the first keyframe's
 * own SPS and PPS), each handed on as soon as its last RTP packet is read. RTP stamps a picture
 * with its presentation time (unwrapped here, in ms from the first picture); the decode time comes
 * from decode-times.ts — the same time without B-frames; with them, a reorder depth (the SPS's
 * max_num_reorder_frames, or learnt) behind, with the difference as the composition offset, and
 * still at once: no picture waits for a later one.
 *
 * An H.265 camera is read as far as its description: the session cannot share H.265 (FLV and
 * browsers' MSE carry H.264), so it ends at once as `unsupported` without a stream being set up.
 */
export const H265_UNSUPPORTED = "the camera's video cannot be shared: it is H.265 (FLV, which carries the session's pictures, and browsers' MSE take H.264)";

const NAL_LENGTH_BYTES = 4;

/** Frames a second assumed when the SPS gives no timing (the spacing of the first decode times only). */
const DEFAULT_FPS = 25;

/**
 * Decode times for a stream of this SPS: its reorder depth when its VUI says (else learnt, from
 * what an earlier SPS of the camera's learnt), its frame duration when it says.
 */
function decodeTimesFor(sps: Buffer, clockRate: number, learnt: number | undefined): DecodeTimes {
  let info: ReturnType<typeof readSps> | undefined;
  try {
    info = readSps(sps);
  } catch {
    info = undefined;
  }
  // Baseline pictures are never reordered (no B slices).
  const baseline = info?.profile === 66;
  const said = info?.reorderFrames;
  const frameSeconds = info?.frameSeconds !== undefined && info.frameSeconds > 0 && info.frameSeconds < 2 ? info.frameSeconds : 1 / DEFAULT_FPS;
  return new DecodeTimes({
    reorderDepth: said ?? (baseline ? 0 : (learnt ?? 0)),
    learn: said === undefined && !baseline,
    frameTicks: Math.round(frameSeconds * clockRate),
  });
}

export function startRtspReader(url: string, opts: CameraReaderOptions, events: CameraReaderEvents): CameraReader {
  let record: Buffer | undefined;
  let sps: Buffer[] = [];
  let pps: Buffer[] = [];
  let firstTimestamp: number | undefined;
  let decodeTimes: DecodeTimes | undefined;
  /** The SPS the decode times were set up for. */
  let timedSps: Buffer | undefined;
  /** Parameter sets or SEI sent without a slice: they go before the next picture's. */
  let carried: Buffer[] = [];

  const updateConfig = () => {
    if (sps.length === 0 || pps.length === 0) return;
    const next = avcConfigRecord(sps, pps);
    if (record?.equals(next)) return;
    record = next;
    events.onConfig(record);
  };

  let ended = false;
  const stream = openRtspStream(url, {
    timeoutMs: Math.min(opts.firstByteTimeoutMs, 5_000),
    firstPacketTimeoutMs: opts.firstByteTimeoutMs,
    onTrack(track) {
      if (track.codec === 'h265') return H265_UNSUPPORTED;
      sps = track.parameterSets.filter((n) => nalType(n) === NAL_SPS).slice(0, 1);
      pps = track.parameterSets.filter((n) => nalType(n) === NAL_PPS);
      updateConfig();
      return undefined;
    },
    onBytes: (n) => events.onBytes(n),
    onAccessUnit(au, track) {
      if (!au.slices) {
        carried.push(...au.nals);
        return;
      }
      if (ended) return;
      const nals = orderAccessUnit(carried.length > 0 ? [...carried, ...au.nals] : au.nals);
      carried = [];
      if (au.keyframe) {
        // The keyframe's own parameter sets are the ones its pictures decode with.
        const inSps = nals.filter((n) => nalType(n) === NAL_SPS).slice(0, 1);
        const inPps = nals.filter((n) => nalType(n) === NAL_PPS);
        if (inSps.length > 0) sps = inSps;
        if (inPps.length > 0) pps = inPps;
        updateConfig();
      }
      if (!record) return; // nothing decodes before the first sequence header
      if (!nals.some(isSlice)) return;
      const spsNow = sps[0] as Buffer;
      if (!decodeTimes || (au.keyframe && !timedSps?.equals(spsNow))) {
        decodeTimes = decodeTimesFor(spsNow, track.clockRate, decodeTimes?.learnt);
        timedSps = spsNow;
      }
      firstTimestamp ??= au.timestamp;
      const pts = au.timestamp - firstTimestamp;
      const { dts } = decodeTimes.next(pts);
      const toMs = (ticks: number) => Math.round((ticks * 1000) / track.clockRate);
      const timestampMs = toMs(dts);
      events.onPicture({
        data: joinNals(nals, NAL_LENGTH_BYTES),
        keyframe: au.keyframe,
        timestampMs,
        compositionMs: toMs(pts) - timestampMs,
      });
    },
    onEnd(end) {
      if (ended) return;
      ended = true;
      events.onEnd(end);
    },
  });
  return {
    kind: 'rtsp',
    async stop(reason) {
      stream.stop();
      if (ended) return;
      ended = true;
      if (reason !== undefined) events.onEnd({ reason });
    },
  };
}
