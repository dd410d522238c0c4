import { NAL_PPS, NAL_SPS, isSlice, joinNals, nalType, orderAccessUnit } from '../access-unit.ts';
import { avcConfigRecord, isBSlice } from '../avc.ts';
import type { CameraReader, CameraReaderEvents, CameraReaderOptions } from '../camera-reader.ts';
import { openRtspStream } from './stream.ts';

/**
 * The camera session's RTSP reader: the camera's H.264 pictures as the ffmpeg reader gives them
 * (one sample per picture, 4-byte NAL lengths, AUD/SPS/PPS/SEI before the slices, each parameter
 * set once; the sequence header from the SDP's sprop-parameter-sets, or from the first keyframe's
 * own SPS and PPS), each handed on as soon as its last RTP packet is read. Decode times are the
 * RTP timestamps (unwrapped) in ms from the first picture: RTP stamps a picture with its
 * presentation time, which is its decode time only without B-frames. A camera that sends B slices
 * is handed to the ffmpeg reader (`fallback`) at its first one.
 *
 * An H.265 camera is read as far as its description: the session cannot share H.265 (FLV and
 * browsers' MSE carry H.264), so it ends at once as `unsupported` without a stream being set up.
 */
export const B_FRAMES = 'the camera sends B-frames (pictures out of presentation order)';

export const H265_UNSUPPORTED = "the camera's video cannot be shared: it is H.265 (FLV, which carries the session's pictures, and browsers' MSE take H.264)";

const NAL_LENGTH_BYTES = 4;

export function startRtspReader(url: string, opts: CameraReaderOptions, events: CameraReaderEvents): CameraReader {
  let record: Buffer | undefined;
  let sps: Buffer[] = [];
  let pps: Buffer[] = [];
  let firstTimestamp: number | undefined;
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
      const firstSlice = nals.find(isSlice);
      if (firstSlice && isBSlice(firstSlice)) {
        ended = true;
        stream.stop();
        events.onEnd({ reason: B_FRAMES, fallback: B_FRAMES });
        return;
      }
      if (au.keyframe) {
        // The keyframe's own parameter sets are the ones its pictures decode with.
        const inSps = nals.filter((n) => nalType(n) === NAL_SPS).slice(0, 1);
        const inPps = nals.filter((n) => nalType(n) === NAL_PPS);
        if (inSps.length > 0) sps = inSps;
        if (inPps.length > 0) pps = inPps;
        updateConfig();
      }
      if (!record) return; // nothing decodes before the first sequence header
      firstTimestamp ??= au.timestamp;
      events.onPicture({
        data: joinNals(nals, NAL_LENGTH_BYTES),
        keyframe: au.keyframe,
        timestampMs: Math.round(((au.timestamp - firstTimestamp) * 1000) / track.clockRate),
        compositionMs: 0,
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
