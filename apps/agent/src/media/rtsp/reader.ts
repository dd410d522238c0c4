import { NAL_PPS, NAL_SPS, isSlice, joinNals, nalType, orderAccessUnit } from '../access-unit.ts';
import { HEVC_NAL_AUD, HEVC_NAL_PPS, HEVC_NAL_SPS, HEVC_NAL_VPS, hevcConfigRecord, hevcNalType, isHevcSlice, readHevcSps } from '@ship-cctv/media';
import { avcConfigRecord, readSps } from '../avc.ts';
import type { CameraReader, CameraReaderEvents, CameraReaderOptions } from '../camera-reader.ts';
import { DecodeTimes } from './decode-times.ts';
import type { AccessUnit } from './depacketizer.ts';
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
 * An H.265 camera is read the same way (startHevcReader): its VPS, SPS and PPS make an hvcC
 * record (the SDP's sprop-vps/sps/pps, or the keyframe's own), pictures carry their AUD and
 * parameter sets before the slices, and the SPS's sps_max_num_reorder_pics is the reorder depth of
 * its B-frames.
 */

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
  let hevc: HevcPictures | undefined;
  const stream = openRtspStream(url, {
    timeoutMs: Math.min(opts.firstByteTimeoutMs, 5_000),
    firstPacketTimeoutMs: opts.firstByteTimeoutMs,
    onTrack(track) {
      if (track.codec === 'h265') {
        hevc = new HevcPictures(track.parameterSets, events);
        return undefined;
      }
      sps = track.parameterSets.filter((n) => nalType(n) === NAL_SPS).slice(0, 1);
      pps = track.parameterSets.filter((n) => nalType(n) === NAL_PPS);
      updateConfig();
      return undefined;
    },
    onBytes: (n) => events.onBytes(n),
    onAccessUnit(au, track) {
      if (hevc) {
        if (!ended) hevc.accessUnit(au, track.clockRate);
        return;
      }
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
        ...(au.capturedAt === undefined ? {} : { capturedAt: au.capturedAt }),
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

/** H.265 in the access-unit order of a picture: AUD, then VPS, SPS, PPS (each once), then the rest in order. */
function orderHevcAccessUnit(nals: readonly Buffer[]): Buffer[] {
  const aud = nals.filter((n) => hevcNalType(n) === HEVC_NAL_AUD).slice(0, 1);
  const params: Buffer[] = [];
  for (const t of [HEVC_NAL_VPS, HEVC_NAL_SPS, HEVC_NAL_PPS]) {
    for (const n of nals) if (hevcNalType(n) === t && !params.some((p) => p.equals(n))) params.push(n);
  }
  const rest = nals.filter((n) => {
    const t = hevcNalType(n);
    return t !== HEVC_NAL_AUD && t !== HEVC_NAL_VPS && t !== HEVC_NAL_SPS && t !== HEVC_NAL_PPS;
  });
  return [...aud, ...params, ...rest];
}

/**
 * An H.265 camera's pictures: the hvcC record from its VPS, SPS and PPS (the SDP's, replaced by a
 * keyframe's own), then each picture with 4-byte NAL lengths. Decode times as for H.264, the
 * reorder depth from the SPS (an H.265 SPS always says it). A keyframe that comes without any
 * parameter set, from a camera whose SDP had none, is said once in the reader's error.
 */
export class HevcPictures {
  private vps: Buffer[] = [];
  private sps: Buffer[] = [];
  private pps: Buffer[] = [];
  private record: Buffer | undefined;
  private carried: Buffer[] = [];
  private firstTimestamp: number | undefined;
  private decodeTimes: DecodeTimes | undefined;
  private timedSps: Buffer | undefined;

  constructor(
    sdpParameterSets: readonly Buffer[],
    private readonly events: CameraReaderEvents,
  ) {
    this.take(sdpParameterSets);
    this.update();
  }

  private take(nals: readonly Buffer[]): void {
    const of = (t: number) => nals.filter((n) => hevcNalType(n) === t);
    const vps = of(HEVC_NAL_VPS);
    const sps = of(HEVC_NAL_SPS).slice(0, 1);
    const pps = of(HEVC_NAL_PPS);
    if (vps.length > 0) this.vps = vps;
    if (sps.length > 0) this.sps = sps;
    if (pps.length > 0) this.pps = pps;
  }

  private update(): void {
    if (this.vps.length === 0 || this.sps.length === 0 || this.pps.length === 0) return;
    let next: Buffer;
    try {
      next = Buffer.from(hevcConfigRecord(this.vps, this.sps, this.pps));
    } catch (err) {
      this.events.onProblem?.(`the camera's H.265 parameter sets are unreadable: ${(err as Error).message}`);
      return;
    }
    if (this.record?.equals(next)) return;
    this.record = next;
    this.events.onConfig(next, 'h265');
  }

  accessUnit(au: AccessUnit, clockRate: number): void {
    if (!au.slices) {
      this.carried.push(...au.nals);
      return;
    }
    const nals = orderHevcAccessUnit(this.carried.length > 0 ? [...this.carried, ...au.nals] : au.nals);
    this.carried = [];
    if (au.keyframe) {
      this.take(nals);
      this.update();
      if (!this.record) this.events.onProblem?.('the camera sent an H.265 keyframe without its parameter sets (VPS, SPS, PPS), in its SDP or before the keyframe: nothing can decode it');
    }
    if (!this.record || !nals.some(isHevcSlice)) return;
    const spsNow = this.sps[0] as Buffer;
    if (!this.decodeTimes || (au.keyframe && !this.timedSps?.equals(spsNow))) {
      let depth: number;
      try {
        depth = readHevcSps(spsNow).reorderPictures;
      } catch {
        depth = 0;
      }
      this.decodeTimes = new DecodeTimes({ reorderDepth: depth, learn: false, frameTicks: Math.round(clockRate / DEFAULT_FPS) });
      this.timedSps = spsNow;
    }
    this.firstTimestamp ??= au.timestamp;
    const pts = au.timestamp - this.firstTimestamp;
    const { dts } = this.decodeTimes.next(pts);
    const toMs = (ticks: number) => Math.round((ticks * 1000) / clockRate);
    const timestampMs = toMs(dts);
    this.events.onPicture({
      data: joinNals(nals, NAL_LENGTH_BYTES),
      keyframe: au.keyframe,
      timestampMs,
      compositionMs: toMs(pts) - timestampMs,
      ...(au.capturedAt === undefined ? {} : { capturedAt: au.capturedAt }),
    });
  }
}
