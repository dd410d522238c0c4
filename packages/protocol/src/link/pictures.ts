import { Type, type Static } from 'typebox';
import { CameraId, EpochMs, StreamId, Text } from './common.ts';

/**
 * Pictures (kind `pictures`, binary kind 3 up): snapshots taken and kept on the ship, listed with
 * tiny thumbnails, and sent to shore by store-and-forward.
 *
 * Requests (`take`, `list`, `fetch`) each go on a stream shore opens for the question; the answer
 * names it. Store-and-forward uses one more stream, the *inbox*: shore opens it (`pictures.inbox`)
 * as soon as a ship that handles pictures says hello (link version 3 and older), or, from version
 * 4, when the ship asks for it (`outbox`) or shore has snapshot tasks to hand it, and closes it
 * (`pictures.inboxClosed`) once the ship says `pictures.idle`. The ship's outbox sends
 * on it one picture at a time — `pictures.offer`, shore's `pictures.resume` with the byte to start
 * from (what shore already holds of it: an outage or an agent restart mid-picture costs nothing
 * twice), the bytes as binary frames `[offset u32 BE][bytes]`, then shore's `pictures.stored`,
 * after which the ship takes the picture out of its outbox (it stays in the ship's store). A
 * picture shore already has is answered `stored` at once (de-duplication by picture id); bytes
 * that do not make the picture offered (checksum, not a JPEG) are answered `rejected`, thrown
 * away, and offered again from the first byte. A good picture shore's store does not take at once
 * (slow or away) is answered `storing`: shore holds it whole and stores it later, so the ship
 * waits for `stored` rather than sending it again (an agent that does not know `storing` offers it
 * again after its answer time, and costs only the offer).
 *
 * Thumbnails of a `list` answer follow it as binary frames on the request's stream:
 * `[index u16 BE][JPEG]`, index into `pictures`.
 */

/** A picture's id: made by whoever asked for it (shore for a snapshot, the ship for a task's shot); unique across the fleet. */
export const PictureId = Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' });
export const PICTURE_ORIGINS = ['manual', 'task'] as const;
export type PictureOrigin = (typeof PICTURE_ORIGINS)[number];
export const PictureOriginSchema = Type.Enum(PICTURE_ORIGINS);
/** The largest picture the link carries (a 4K JPEG is well under it). */
export const PICTURE_MAX_BYTES = 16 * 1024 * 1024;
/** Most entries one list answer holds. */
export const PICTURE_LIST_MAX = 200;
/** Bytes of a picture chunk's header (its offset) in a binary frame. */
export const PICTURE_CHUNK_HEADER_BYTES = 4;
/** Bytes of a thumbnail's header (its index) in a binary frame. */
export const PICTURE_THUMB_HEADER_BYTES = 2;

const Dimension = Type.Integer({ minimum: 16, maximum: 8192 });

/** What the ship knows of one picture it holds. */
export const PictureMeta = Type.Object({
  pictureId: PictureId,
  cameraId: CameraId,
  /** When the picture shows (the moment taken, or the recorded time for one from the recorder). */
  time: EpochMs,
  mime: Type.Literal('image/jpeg'),
  bytes: Type.Integer({ minimum: 1, maximum: PICTURE_MAX_BYTES }),
  width: Dimension,
  height: Dimension,
  origin: PictureOriginSchema,
  /** The snapshot task that took it (origin `task`). */
  taskId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** SHA-256 of the picture's bytes, lower-case hex: shore checks what arrived against it. */
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});
export type PictureMeta = Static<typeof PictureMeta>;

/** One entry of a list answer: the picture, and the size of its thumbnail (which follows as bytes). */
export const ShipPictureEntry = Type.Object({
  pictureId: PictureId,
  cameraId: CameraId,
  time: EpochMs,
  bytes: Type.Integer({ minimum: 1, maximum: PICTURE_MAX_BYTES }),
  width: Dimension,
  height: Dimension,
  origin: PictureOriginSchema,
  thumbBytes: Type.Integer({ minimum: 0, maximum: 65_535 }),
});
export type ShipPictureEntry = Static<typeof ShipPictureEntry>;

/** A snapshot task's id (shore makes it); a task shot's picture id is `<taskId>_<index>_<camera>`. */
export const TaskId = Type.String({ pattern: '^[A-Za-z0-9-]{8,40}$' });
/** Most tasks one ship holds, and cameras one task names. */
export const SHIP_TASKS_MAX = 100;
export const TASK_CAMERAS_MAX = 64;
/** Shortest interval between shots of a task (a rate of 1/60 hour). */
export const TASK_MIN_EVERY_MS = 60_000;

/**
 * A snapshot task as the ship runs it: every camera named is shot at start, start + everyMs, …
 * (before end), on the ship's clock, whether or not the link is up.
 */
export const SnapshotTaskSpec = Type.Object({
  taskId: TaskId,
  cameraIds: Type.Array(CameraId, { minItems: 1, maxItems: TASK_CAMERAS_MAX }),
  everyMs: Type.Integer({ minimum: TASK_MIN_EVERY_MS, maximum: 30 * 86_400_000 }),
  start: EpochMs,
  end: EpochMs,
  width: Dimension,
  height: Dimension,
});
export type SnapshotTaskSpec = Static<typeof SnapshotTaskSpec>;

/** What became of one planned shot of a task. */
export const TaskShotReport = Type.Object({
  cameraId: CameraId,
  /** The shot's number: planned at start + index × everyMs. */
  index: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  outcome: Type.Union([Type.Literal('taken'), Type.Literal('failed')]),
  pictureId: Type.Optional(PictureId),
  reason: Type.Optional(Text),
});
export type TaskShotReport = Static<typeof TaskShotReport>;

/** How many shots a task plans per camera: start, start + everyMs, … before end. */
export function taskShotCount(task: Pick<SnapshotTaskSpec, 'start' | 'end' | 'everyMs'>): number {
  return task.end <= task.start ? 0 : Math.ceil((task.end - task.start) / task.everyMs);
}

/** The picture id of a task's shot (deterministic: a shot taken twice would be one picture). */
export function taskPictureId(taskId: string, index: number, cameraIndex: number): string {
  return `${taskId}_${index}_${cameraIndex}`;
}

/** Why the ship could not do what was asked. */
export const PICTURE_FAILURES = ['cameraOffline', 'noRecording', 'notFound', 'busy', 'failed'] as const;
export type PictureFailure = (typeof PICTURE_FAILURES)[number];

export const PicturesShoreMessages = [
  /** The stream the ship's outbox sends on while this connection lasts. */
  Type.Object({ type: Type.Literal('pictures.inbox'), streamId: StreamId }),
  /**
   * Take a picture of a camera now (`at` absent) or from the ship recorder at `at`, at most
   * width × height (the aspect ratio is kept), keep it and put it first in the outbox.
   */
  Type.Object({
    type: Type.Literal('pictures.take'),
    streamId: StreamId,
    pictureId: PictureId,
    cameraId: CameraId,
    width: Dimension,
    height: Dimension,
    at: Type.Optional(EpochMs),
    origin: PictureOriginSchema,
    taskId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  }),
  /** Which pictures of a camera the ship holds in [from, to), newest first, with thumbnails. */
  Type.Object({
    type: Type.Literal('pictures.list'),
    streamId: StreamId,
    cameraId: CameraId,
    from: EpochMs,
    to: EpochMs,
    limit: Type.Integer({ minimum: 1, maximum: PICTURE_LIST_MAX }),
  }),
  /** Send this picture to shore next (an operator opened it). */
  Type.Object({ type: Type.Literal('pictures.fetch'), streamId: StreamId, pictureId: PictureId }),
  /** Inbox: send the offered picture from byte `offset` (what shore holds of it already). */
  Type.Object({ type: Type.Literal('pictures.resume'), streamId: StreamId, pictureId: PictureId, offset: Type.Integer({ minimum: 0, maximum: PICTURE_MAX_BYTES }) }),
  /** Inbox: shore holds the picture; the ship may take it out of its outbox. */
  Type.Object({ type: Type.Literal('pictures.stored'), streamId: StreamId, pictureId: PictureId }),
  /**
   * Inbox: shore holds the whole picture, checked, but its store has not taken it yet (slow or
   * away); shore keeps trying and says `stored` when it has. The ship keeps the picture in its
   * outbox and waits: an offer of it again is answered `storing` with no bytes asked for.
   */
  Type.Object({ type: Type.Literal('pictures.storing'), streamId: StreamId, pictureId: PictureId }),
  /** Inbox: what arrived is not the picture offered; shore threw it away. Offer it again from the start. */
  Type.Object({ type: Type.Literal('pictures.rejected'), streamId: StreamId, pictureId: PictureId, reason: Text }),
  /**
   * Inbox: every snapshot task the ship is to run (sent when the inbox opens and whenever a task is
   * added or deleted). The ship keeps them durably and drops any it holds that is not listed.
   */
  Type.Object({ type: Type.Literal('pictures.tasks'), streamId: StreamId, tasks: Type.Array(SnapshotTaskSpec, { maxItems: SHIP_TASKS_MAX }) }),
  /**
   * (Version 4.) Inbox: shore closed it after the ship said `idle`; nothing more goes on it. The
   * ship asks again (`outbox`) when it has something to send.
   */
  Type.Object({ type: Type.Literal('pictures.inboxClosed'), streamId: StreamId }),
] as const;

export const PicturesAgentMessages = [
  /** Answer to `take`: the picture is on the ship and waits in its outbox. */
  Type.Object({ type: Type.Literal('pictures.taken'), streamId: StreamId, picture: PictureMeta }),
  /** Answer to `list`; each entry's thumbnail (thumbBytes > 0) follows as a binary frame. */
  Type.Object({
    type: Type.Literal('pictures.listed'),
    streamId: StreamId,
    cameraId: CameraId,
    pictures: Type.Array(ShipPictureEntry, { maxItems: PICTURE_LIST_MAX }),
    /** More pictures are in the range than the limit let through. */
    truncated: Type.Boolean(),
  }),
  /** Answer to `fetch`: the picture is next in the outbox (`position` 0: on its way now). */
  Type.Object({ type: Type.Literal('pictures.queued'), streamId: StreamId, pictureId: PictureId, position: Type.Integer({ minimum: 0 }) }),
  /** Answer to `take`, `list` or `fetch` that could not be done. */
  Type.Object({ type: Type.Literal('pictures.failed'), streamId: StreamId, code: Type.Enum(PICTURE_FAILURES), message: Text }),
  /** Inbox: the next picture of the outbox; its bytes follow once shore answers `resume`. */
  Type.Object({ type: Type.Literal('pictures.offer'), streamId: StreamId, picture: PictureMeta }),
  /** Inbox: the ship holds these tasks now (its answer to `pictures.tasks`). */
  Type.Object({ type: Type.Literal('pictures.tasksHeld'), streamId: StreamId, taskIds: Type.Array(TaskId, { maxItems: SHIP_TASKS_MAX }) }),
  /** Inbox: what became of shots of a task (each as it happens; all of a task again when the inbox opens). */
  Type.Object({ type: Type.Literal('pictures.shots'), streamId: StreamId, taskId: TaskId, shots: Type.Array(TaskShotReport, { maxItems: 5_000 }) }),
  /** (Version 4.) Inbox: the ship has nothing more to send on it (nothing offered or waiting); shore may close it. */
  Type.Object({ type: Type.Literal('pictures.idle'), streamId: StreamId }),
] as const;

export const ShorePicturesMessage = Type.Union([...PicturesShoreMessages]);
export type ShorePicturesMessage = Static<typeof ShorePicturesMessage>;
export const AgentPicturesMessage = Type.Union([...PicturesAgentMessages]);
export type AgentPicturesMessage = Static<typeof AgentPicturesMessage>;

/** A picture chunk as it crosses the link: `[offset u32 BE][bytes]`. */
export function encodePictureChunk(offset: number, bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(PICTURE_CHUNK_HEADER_BYTES + bytes.length);
  new DataView(out.buffer).setUint32(0, offset);
  out.set(bytes, PICTURE_CHUNK_HEADER_BYTES);
  return out;
}

export function decodePictureChunk(payload: Uint8Array): { offset: number; bytes: Uint8Array } | undefined {
  if (payload.length < PICTURE_CHUNK_HEADER_BYTES) return undefined;
  return { offset: new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint32(0), bytes: payload.subarray(PICTURE_CHUNK_HEADER_BYTES) };
}

/** A thumbnail as it crosses the link: `[index u16 BE][JPEG]`. */
export function encodeThumb(index: number, jpeg: Uint8Array): Uint8Array {
  const out = new Uint8Array(PICTURE_THUMB_HEADER_BYTES + jpeg.length);
  new DataView(out.buffer).setUint16(0, index);
  out.set(jpeg, PICTURE_THUMB_HEADER_BYTES);
  return out;
}

export function decodeThumb(payload: Uint8Array): { index: number; jpeg: Uint8Array } | undefined {
  if (payload.length < PICTURE_THUMB_HEADER_BYTES) return undefined;
  return { index: new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint16(0), jpeg: payload.subarray(PICTURE_THUMB_HEADER_BYTES) };
}
