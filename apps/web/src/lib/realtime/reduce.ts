import { parseDestination, type MediaListMessage, type PictureEvent } from '@ship-cctv/protocol';

/** Live and recording state of one camera, merged from the two kinds of /mediaList message. */
export interface CameraStatus {
  online: boolean;
  recording: boolean;
  recordStart: number | null;
  recordEnd: number | null;
  recordConfigId: string | null;
  /** The shore recorder's state of the camera (messages with `recorder: 'shore'`), kept apart. */
  shore: { recording: boolean; recordStart: number | null; recordEnd: number | null; recordConfigId: string | null };
}

/** /mediaList/{instance} carries every camera of the instance: the store keeps one entry per sourceId. */
export type MediaListState = ReadonlyMap<string, CameraStatus>;

export const OFFLINE_CAMERA: CameraStatus = Object.freeze({
  online: false,
  recording: false,
  recordStart: null,
  recordEnd: null,
  recordConfigId: null,
  shore: Object.freeze({ recording: false, recordStart: null, recordEnd: null, recordConfigId: null }),
});

/**
 * Spec §4: a message with remoteRecord set is a recording status (recording flag, start, end and
 * config id); otherwise it is a live status. Entries of other cameras keep their identity, so
 * a view selecting one camera re-renders only when that camera changed.
 */
export function reduceMediaList(prev: MediaListState | undefined, message: MediaListMessage): MediaListState {
  if (!message || typeof message.sourceId !== 'string') return prev ?? new Map();
  const before = prev?.get(message.sourceId) ?? OFFLINE_CAMERA;
  const isRecordStatus = message.remoteRecord !== null && message.remoteRecord !== undefined;
  const record = {
    recording: message.remoteRecord === true,
    recordStart: message.remoteStart ?? null,
    recordEnd: message.remoteEnd ?? null,
    recordConfigId: message.argId ?? null,
  };
  // The ship's recorder and the shore recorder report the same camera: neither overwrites the other.
  const after: CameraStatus = !isRecordStatus
    ? { ...before, online: message.status === 'ONLINE' }
    : message.recorder === 'shore'
      ? { ...before, shore: record }
      : { ...before, ...record };
  const next = new Map(prev);
  next.set(message.sourceId, after);
  return next;
}

/** Pictures of a ship on their way: the latest event of each picture (a new Map per change). */
export type PictureEvents = ReadonlyMap<string, PictureEvent>;

/** Keeps the last 200 pictures' events: a page that stays open for days does not grow without bound. */
const PICTURE_EVENTS_KEPT = 200;

export function reducePictureEvents(prev: PictureEvents | undefined, event: PictureEvent): PictureEvents {
  if (typeof event?.pictureId !== 'string') return prev ?? new Map();
  const next = new Map(prev);
  // A late `progress` does not undo `stored`.
  if (next.get(event.pictureId)?.event === 'stored' && event.event === 'progress') return prev ?? next;
  next.delete(event.pictureId);
  next.set(event.pictureId, event);
  while (next.size > PICTURE_EVENTS_KEPT) next.delete(next.keys().next().value as string);
  return next;
}

/**
 * How a destination's messages fold into the value the store keeps: /mediaList accumulates per
 * camera, /pictures per picture, everything else keeps the latest message.
 */
export function reduceMessage(destination: string, prev: unknown, message: unknown): unknown {
  const kind = parseDestination(destination)?.kind;
  if (kind === 'mediaList') return reduceMediaList(prev as MediaListState | undefined, message as MediaListMessage);
  if (kind === 'pictures') return reducePictureEvents(prev as PictureEvents | undefined, message as PictureEvent);
  return message;
}
