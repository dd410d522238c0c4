import type { PlaybackSpeed } from './constants.ts';
import type { BackfilledDefinition } from './schemas/backfill.ts';

/**
 * Recordings and playback (spec §2 `/live/recordlivevideo`, `/record/video`; §3 record state and
 * playback options; §5; §8). Two recorders exist:
 *
 * - the **ship recorder** (on the agent): what the ship itself recorded. Asked over the agent link
 *   (`vod.query`) and played back over the link (`playback.*`, binary kind BINARY_KIND.playback; the messages are in link/playback.ts);
 * - the **shore recorder** (on the server): what crossed the link while somebody watched live and a
 *   recording configuration of the channel was active. It never asks the ship for anything.
 *
 * Every time is epoch milliseconds (UTC). A time zone only changes how a time is shown or typed.
 */

/** Longest range one ship-end playback may cover (the ship keeps at least 7 days). */
export const SHIP_PLAYBACK_MAX_RANGE_MS = 7 * 24 * 3_600_000;

/** A recorded span [start, end) of one camera. Gaps between spans are times nothing was recorded. */
export interface RecordedSpan {
  start: number;
  end: number;
}

/**
 * Why a recorder holds nothing for a while. The shore's recording: `linkDown` (the ship's link was
 * down), `cameraSilent` (the ship was connected but the camera sent nothing or was reported
 * offline), `nothingOnShip` (the ship's own recorder holds nothing then either), `budgetHeld` (a
 * data budget held live video), `retention` (older than what the shore keeps), `backfillPending`
 * (the ship holds it and it is on its way to shore). The ship's recorder: `cameraSilent`,
 * `diskFull` (deleted early to make room, or never written for lack of it), `agentStopped` (the
 * agent was not running), `retention` (older than the ship keeps). `unknown`: no fact says.
 */
export const GAP_CAUSES = ['linkDown', 'cameraSilent', 'nothingOnShip', 'budgetHeld', 'retention', 'backfillPending', 'diskFull', 'agentStopped', 'unknown'] as const;
export type GapCause = (typeof GAP_CAUSES)[number];

/** A time [start, end) a recorder holds nothing of a camera, and why. */
export interface RecordingGap {
  start: number;
  end: number;
  cause: GapCause;
}

/** The gaps of one camera's shore recording inside the span a query asked for. */
export interface CameraGaps {
  shipId: string;
  cameraId: string;
  gaps: RecordingGap[];
}

// ---------------------------------------------------------------------------------------------
// Media socket (PATHS.media): ship-end playback. The play command replaces `mode: "live"`.

export interface ShipPlaybackCommand {
  type: 'play';
  mode: 'shipPlayback';
  cameraId: string;
  /** Definition model id; absent means the ship's default (no default → `noDefaultTemplate`). */
  templateId?: number;
  start: number;
  end: number;
  speed: PlaybackSpeed;
  /** The operator's chosen zone (timezones.json `value`), kept for logs and display only. */
  timeZone?: string;
  /**
   * Codec prefixes the viewer decodes, as in a live play (PlayCommand.decoders). One that lists
   * `hvc1`/`hev1` gets an H.265 camera's recording at 1× as the ship keeps it (no transcode on the
   * ship) when it fits the definition; others, and every other speed, H.264.
   */
  decoders?: string[];
}

/** Controls of a running ship-end playback; the socket stays open. */
export type PlaybackControlCommand =
  | { type: 'pause' }
  | { type: 'resume' }
  /** Jump to a recorded time inside [start, end). */
  | { type: 'seek'; time: number }
  | { type: 'speed'; speed: PlaybackSpeed };

/**
 * Extra server → client messages of a playback (besides `codec`, `status`, binary and `error`):
 * `position` about once a second with the recorded time being shown. After `seek` or `speed` the
 * server sends a new `codec` and init segment, exactly as after a definition change.
 * `status` `ended` = the range is done. Errors: `noRecording` (no playback video in the selected
 * time range) and `playbackFailed` (playback failed).
 */
export type PlaybackServerMessage = { type: 'position'; time: number; speed: PlaybackSpeed; paused: boolean };

// ---------------------------------------------------------------------------------------------
// REST.

/**
 * `GET /cctvv3-server/v3/vod/query/{shipId}/{cameraId}/{start}/{end}` → data: VodQueryResult.
 * Asked of the agent over the link and cached on shore (a span that ended in the past does not
 * change). 404 for an unknown ship or camera, 403 outside the user's organisations, 400 for a bad
 * range, 503 when the ship is offline and nothing is cached.
 */
export interface VodQueryResult {
  shipId: string;
  cameraId: string;
  start: number;
  end: number;
  spans: RecordedSpan[];
  /**
   * The times of [start, end) (up to now) the ship holds nothing, with the ship's cause; an agent
   * that does not say gives `unknown`.
   */
  gaps: RecordingGap[];
  /** True when answered from the shore cache without asking the ship. */
  cached: boolean;
}

/**
 * The definition backfill asks the ship for:
 * - `recorded`: the one the shore recording was recorded in (the live video the shore recorder had
 *   before the gap) — the default;
 * - `lowest`: the ship's default group's smallest definition above the satellite tier;
 * - `satellite`: its satellite-tier definition (in H.264);
 * - `ship`: the ship recorder's own files, copied as they are (no transcoding on the ship).
 * A level is never above `recorded` (what shore recorded is the most it asks for), and the ship
 * copies its own files when the definition asked would save less than a quarter of their bytes, or
 * when its agent cannot transcode.
 */
export const BACKFILL_DEFINITIONS = ['recorded', 'lowest', 'satellite', 'ship'] as const;
export type BackfillDefinition = (typeof BACKFILL_DEFINITIONS)[number];
/** A shore recording configuration of one channel (spec §3 recordConfigId). */
export interface RecordConfig {
  id: string;
  cameraId: string;
  mode: 'continuous' | 'scheduled';
  /** For `scheduled`: daily windows in minutes after midnight in `timeZone`, [from, to). */
  schedule: { from: number; to: number }[];
  /** IANA time zone the windows are read in (e.g. "Asia/Shanghai": 08:00 is 08:00 on board a ship on Beijing time). */
  timeZone: string;
  enabled: boolean;
  /** Gaps in this camera's shore recording are refilled from the ship recorder (when its organisation allows; default on). */
  backfill: boolean;
  /** The definition this camera's gaps are refilled in; null: its organisation's choice. */
  backfillDefinition: BackfillDefinition | null;
}

/** `POST /api/v1/cctv/record/complexQuery/{page}/{size}` body (every field optional). */
export interface RecordQueryFilter {
  orgId?: string;
  shipId?: string;
  cameraId?: string;
  /** Recordings overlapping [start, end). */
  start?: number;
  end?: number;
}

/** One shore recording: a continuous run of segments of one camera at one definition. */
export interface RecordingSummary {
  id: string;
  orgId: string;
  shipId: string;
  cameraId: string;
  recordConfigId: string;
  templateId: number;
  start: number;
  end: number;
  bytes: number;
  segments: number;
  /** Copied afterwards from the ship recorder into a gap of the shore recording (backfill), not recorded live. */
  backfilled: boolean;
  /** A backfilled recording's definition, measured from its files (null: recorded live, its template says, or not known). */
  definition: BackfilledDefinition | null;
}

/** data of complexQuery: a page of recordings, newest first. */
export interface RecordQueryPage {
  page: number;
  size: number;
  total: number;
  records: RecordingSummary[];
  /**
   * When the filter gives both start and end: for each camera asked (the filter's camera, recorded
   * or not, else the cameras with a recording in the span), the times of
   * [start, end) up to now its shore recording holds nothing, with their cause. Empty otherwise.
   */
  gaps: CameraGaps[];
}

/**
 * `GET /api/v1/cctv/record/segments/{recordingId}` → data: RecordingSegment[]; each segment is a
 * self-contained fMP4 file (init + fragments) at `GET /api/v1/cctv/record/segment/{segmentId}`,
 * served with HTTP Range.
 */
export interface RecordingSegment {
  id: string;
  recordingId: string;
  start: number;
  end: number;
  bytes: number;
  mime: string;
}

/**
 * `POST /api/v1/cctv/record/clip/{recordingId}` body `{start, end}` → data: ClipJob. Progress:
 * `GET /api/v1/cctv/record/clip/status/{jobId}`; when `done`, the MP4 is at `downloadUrl`. Cancel:
 * `POST /api/v1/cctv/record/clip/cancel/{jobId}`. Clips are persisted jobs: any shore instance may
 * export one, and one that stops gives its clip to another.
 */
export interface ClipJob {
  id: string;
  recordingId: string;
  start: number;
  end: number;
  /** `cancelled`: its user stopped it (POST …/clip/cancel/{jobId}). */
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  /** 0–100. */
  progress: number;
  downloadUrl: string | null;
  message: string | null;
}
