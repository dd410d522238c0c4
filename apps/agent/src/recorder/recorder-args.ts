import { join } from 'node:path';
import { FFMPEG_GLOBAL_ARGS, sessionInputOptions, urlKind } from '../media/ffmpeg-args.ts';

/**
 * ffmpeg for the ship recorder of a URL camera (pure: no I/O, no clock). The camera's video is
 * copied untouched (no decoding, no encoding: recording costs the ship next to no CPU) into
 * segments of about `segmentSeconds` each — cut at the first keyframe after that long — each a
 * fragmented MP4 whose timestamps start at 0, so a segment can be read while it is still being
 * written and a run of segments plays back through the concat demuxer without a seam. A fragment
 * begins at every keyframe and holds at most FRAGMENT_SECONDS of video, and each is handed to the
 * file as soon as it is complete: an agent (or its ffmpeg) killed mid-segment loses at most the
 * fragment being gathered, the rest is kept on the next start (segment-index.ts).
 *
 * Two side channels tell the recorder where the segments lie in time: the segment list (CSV, one
 * `file,start,end` line in seconds of the run as each segment closes) and `-progress` on stdout
 * (the output time once a second), which anchors the run to the wall clock and shows the camera is
 * still sending.
 */
export interface SegmentRecorderArgs {
  /** The camera's URL, or 'pipe:0': the camera session's whole pictures on stdin (FLV, or hvc1 MP4 for H.265: `container`). */
  url: string;
  /** The container on stdin (session-muxer.ts). Default FLV. */
  container?: 'flv' | 'mp4';
  dir: string;
  /** Names this run's files: `<runId>-00000.mp4`, … and `<runId>.csv`. */
  runId: string;
  segmentSeconds: number;
}

/**
 * Longest fragment of a recorded segment, in seconds. Half a second: what ffmpeg holds unwritten
 * (the fragment being gathered, plus the frame it waits for to know the last one's duration) stays
 * under a second.
 */
export const FRAGMENT_SECONDS = 0.5;

export const segmentFileName = (runId: string, index: number) => `${runId}-${String(index).padStart(5, '0')}.mp4`;
export const segmentListName = (runId: string) => `${runId}.csv`;

export function segmentRecorderArgs(o: SegmentRecorderArgs): string[] {
  const kind = urlKind(o.url);
  const input =
    o.url === 'pipe:0'
      ? sessionInputOptions(o.container)
      : kind === 'file'
        ? ['-re', '-stream_loop', '-1']
        : kind === 'rtsp'
          ? ['-rtsp_transport', 'tcp', '-timeout', '5000000']
          : ['-rw_timeout', '10000000'];
  return [
    ...FFMPEG_GLOBAL_ARGS,
    '-progress', 'pipe:1',
    '-stats_period', '1',
    ...input,
    '-i', o.url,
    '-map', '0:v:0',
    '-an', '-sn', '-dn',
    '-c:v', 'copy',
    // H.265 stays H.265, as `hvc1` (parameter sets in the sample entry), which Safari's and
    // Chromium's MSE take; ffmpeg would write `hev1` by default.
    ...(o.container === 'mp4' ? ['-tag:v', 'hvc1'] : []),
    '-f', 'segment',
    '-segment_time', String(o.segmentSeconds),
    '-segment_format', 'mp4',
    '-segment_format_options', `movflags=+frag_keyframe+empty_moov+default_base_moof:frag_duration=${Math.round(FRAGMENT_SECONDS * 1_000_000)}:flush_packets=1`,
    '-reset_timestamps', '1',
    '-segment_list', join(o.dir, segmentListName(o.runId)),
    '-segment_list_type', 'csv',
    join(o.dir, `${o.runId}-%05d.mp4`),
  ];
}
