import { Type, type Static } from 'typebox';
import { CameraId, EncodeSpec, EpochMs, StreamId, Text } from './common.ts';

/**
 * Backfill (kind `backfill`, binary kind 5 up): shore refills a gap in its own recording with copies
 * of the ship recorder's segment files, byte for byte (nothing is decoded or encoded on the ship).
 * `backfill.list` asks which closed segment files of a camera overlap a span (routed by
 * `requestId`); `backfill.fetch` asks for one file (or the part of it covering a span), which comes up as binary frames of the stream
 * and then `backfill.sent` (routed by `streamId`). The agent sends all of it in the lowest class of
 * its uplink scheduler, after playback, and `backfill.sent` in the same queue as the bytes, so it
 * arrives after them. An agent that does not list `backfill` in its hello is never asked.
 *
 * Definition: shore may ask for a file's span in a definition of its own (`encode`, H.264) to an
 * agent whose hello lists BACKFILL_TRANSCODE_CAPABILITY. The agent then sends that span transcoded
 * into it (never above what it recorded) — unless that would save less than a quarter of the
 * recorded bytes, when it copies as above (no transcoding cost) — and says in `backfill.sent` what
 * it did. An agent
 * without the capability is never asked for a definition: it sends what it has.
 */

/** The hello capability of an agent that transcodes a backfilled span into the definition asked (`backfill.fetch` `encode`). */
export const BACKFILL_TRANSCODE_CAPABILITY = 'backfill.transcode';

/** Most files one `backfill.segments` answer lists (~90 bytes a file as JSON: well under the link's 256 KiB). */
export const BACKFILL_MAX_FILES = 1_000;

/** One segment file of the ship recorder: its name (as the ship knows it), span and size. */
export const ShipSegmentFile = Type.Object({
  file: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._-]+$' }),
  start: EpochMs,
  end: EpochMs,
  bytes: Type.Integer({ minimum: 0 }),
});
export type ShipSegmentFile = Static<typeof ShipSegmentFile>;

export const BackfillShoreMessages = [
  /** Which closed segment files of the camera overlap [start, end). */
  Type.Object({ type: Type.Literal('backfill.list'), requestId: StreamId, cameraId: CameraId, start: EpochMs, end: EpochMs }),
  /**
   * Send this segment file as it is on the ship's disk: whole, or given `from` and `to`, only its
   * init segment and the whole fragments covering [from, to) (from the keyframe at or before `from`).
   */
  Type.Object({
    type: Type.Literal('backfill.fetch'),
    streamId: StreamId,
    cameraId: CameraId,
    file: ShipSegmentFile.properties.file,
    from: Type.Optional(EpochMs),
    to: Type.Optional(EpochMs),
    /** The file's start as listed (`backfill.segments`): the agent finds the file by its time. */
    fileStart: Type.Optional(EpochMs),
    /**
     * Send the span in this definition (H.264 only): transcoded unless a copy of the ship's own
     * recording costs about as much. Only to an agent that offers BACKFILL_TRANSCODE_CAPABILITY.
     */
    encode: Type.Optional(EncodeSpec),
  }),
] as const;

export const BackfillAgentMessages = [
  Type.Object({
    type: Type.Literal('backfill.segments'),
    requestId: StreamId,
    cameraId: CameraId,
    segments: Type.Array(ShipSegmentFile, { maxItems: BACKFILL_MAX_FILES }),
  }),
  /** The list could not be made (unknown camera, bad range, a camera whose recording keeps no files). */
  Type.Object({ type: Type.Literal('backfill.refused'), requestId: StreamId, message: Text }),
  /**
   * What was asked went up before this message: `bytes`, holding [start, end) (absent: the whole
   * file, its own span); `encoded`: the definition the ship transcoded it into (absent: the ship's
   * own bytes, copied).
   */
  Type.Object({
    type: Type.Literal('backfill.sent'),
    streamId: StreamId,
    bytes: Type.Integer({ minimum: 0 }),
    start: Type.Optional(EpochMs),
    end: Type.Optional(EpochMs),
    encoded: Type.Optional(EncodeSpec),
  }),
  /** The file could not be sent (gone to retention, unreadable). */
  Type.Object({ type: Type.Literal('backfill.failed'), streamId: StreamId, message: Text }),
] as const;

export const ShoreBackfillMessage = Type.Union([...BackfillShoreMessages]);
export type ShoreBackfillMessage = Static<typeof ShoreBackfillMessage>;
export const AgentBackfillMessage = Type.Union([...BackfillAgentMessages]);
export type AgentBackfillMessage = Static<typeof AgentBackfillMessage>;
