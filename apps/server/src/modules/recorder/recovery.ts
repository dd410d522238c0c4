import { mkdir, open, readFile, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { wholeFragments } from '@ship-cctv/media';
import { RELAY_VIDEO_ENTRIES, RelaySplitter, mimeFor } from '../../core/media/fmp4.ts';
import { PARTIAL_SUFFIX, RECORDING_META_FILE, parsePartialFileName, parseSegmentFileName, segmentFileName, syncFolder } from './segment-file.ts';
import type { NewRecording, NewSegment, RecordingStore } from './repo.ts';

export interface RecoveryResult {
  /** `.part` files of segments being written when the server stopped, with no whole fragment to keep. */
  removedPartials: number;
  /** `.part` files of segments being written when the server stopped, cut back to their last whole fragment and indexed. */
  keptPartials: number;
  /** Finished files that had not been indexed yet, now indexed. */
  recovered: number;
  /** Files or folders the index no longer knows (deleted recordings, retention interrupted). */
  removedOrphans: number;
  /** Recordings that were open when the server stopped, now closed. */
  closed: number;
  /** Recordings the database never heard of (it was away), indexed from their own description. */
  restored: number;
  /** Folders with playable video but no description and no index entry: kept, never deleted. */
  keptUnknown: number;
}

/** Folder of exported clips under the recordings folder (emptied at start). */
export const CLIPS_FOLDER = '.clips';

/**
 * Start-up: brings the recordings folder and the index back in step after a crash or a database
 * outage. Each recording has a folder of its own with its description (recording.json), made
 * before its index row. A `.part` file (being written) is cut back to its last whole fragment and
 * becomes a finished segment ending where that fragment ends — at most one fragment of what the
 * recorder was given is lost — or is removed when it holds no whole fragment; every finished file that parses
 * as a whole fMP4 and is not indexed is indexed now, whatever its place; a recording the database
 * never got is created from its description. A playable file is never deleted for want of an index
 * entry. Only folders in this server's recordings folder are touched: other instances sharing the
 * database keep theirs.
 */
export async function recoverRecordings(store: RecordingStore, root: string): Promise<RecoveryResult> {
  const result: RecoveryResult = { removedPartials: 0, keptPartials: 0, recovered: 0, removedOrphans: 0, closed: 0, restored: 0, keptUnknown: 0 };
  await mkdir(root, { recursive: true });
  await rm(join(root, CLIPS_FOLDER), { recursive: true, force: true });
  const entries = await readdir(root, { withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const recordingId = entry.name;
    const folder = join(root, recordingId);
    let recording = await store.recording(recordingId);
    if (!recording) {
      const meta = await readMeta(join(folder, RECORDING_META_FILE), recordingId);
      if (meta) {
        await store.createRecording(meta);
        recording = await store.recording(recordingId);
        result.restored++;
      }
    }
    if (!recording) {
      // No description (an older version's folder, or a deleted recording): keep it if it holds
      // playable video, so nothing playable is lost; remove it if it holds none.
      const playable = await hasPlayableSegment(folder);
      if (playable) result.keptUnknown++;
      else {
        await rm(folder, { recursive: true, force: true });
        result.removedOrphans++;
      }
      continue;
    }
    const indexed = await store.segmentFiles(recordingId);
    // A file claiming a place the index already gives another file is a leftover, not video lost.
    const indexedSeqs = new Set([...indexed].map((f) => parseSegmentFileName(f.slice(f.lastIndexOf('/') + 1))?.seq));
    const names = (await readdir(folder)).sort();
    for (const name of names) {
      const relative = join(recordingId, name);
      if (name === RECORDING_META_FILE || indexed.has(relative)) continue;
      if (name.endsWith(PARTIAL_SUFFIX)) {
        const kept = await keepPartial(root, recordingId, name, indexedSeqs);
        if (kept) {
          await store.addSegment(kept);
          indexedSeqs.add(kept.seq);
          result.keptPartials++;
        } else {
          await unlink(join(root, relative)).catch(() => undefined);
          result.removedPartials++;
        }
        continue;
      }
      const parsed = parseSegmentFileName(name);
      const mime = parsed && !indexedSeqs.has(parsed.seq) ? await wholeFmp4Mime(join(root, relative)) : undefined;
      if (!parsed || !mime) {
        await unlink(join(root, relative)).catch(() => undefined);
        result.removedOrphans++;
        continue;
      }
      const { size } = await stat(join(root, relative));
      await store.addSegment({
        id: `${recordingId}-${parsed.seq}`,
        recordingId,
        seq: parsed.seq,
        startMs: parsed.startMs,
        endMs: parsed.endMs,
        bytes: size,
        file: relative,
        mime,
      });
      indexedSeqs.add(parsed.seq);
      result.recovered++;
    }
    if (recording.open) {
      const kept = await store.closeRecording(recordingId);
      if (!kept) await rm(folder, { recursive: true, force: true });
      result.closed++;
    }
  }
  return result;
}

/**
 * A segment the server was writing when it stopped, made a finished one: its whole fragments kept
 * (the file truncated after the last, flushed to the disk), renamed to the span they cover — from
 * the start its name gives, for as long as their video lasts. Undefined when there is nothing to
 * keep: no whole fragment, a name that gives no start, or a place in the recording already taken.
 */
async function keepPartial(root: string, recordingId: string, name: string, indexedSeqs: ReadonlySet<number | undefined>): Promise<NewSegment | undefined> {
  const parsed = parsePartialFileName(name);
  if (!parsed || indexedSeqs.has(parsed.seq)) return undefined;
  const path = join(root, recordingId, name);
  let whole;
  try {
    whole = wholeFragments(await readFile(path), { videoEntries: RELAY_VIDEO_ENTRIES });
  } catch {
    return undefined;
  }
  if (!whole) return undefined;
  const endMs = parsed.startMs + whole.durationMs;
  if (endMs <= parsed.startMs) return undefined;
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(whole.bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  const relative = join(recordingId, segmentFileName(parsed.seq, parsed.startMs, endMs));
  await rename(path, join(root, relative));
  await syncFolder(join(root, recordingId));
  return {
    id: `${recordingId}-${parsed.seq}`,
    recordingId,
    seq: parsed.seq,
    startMs: parsed.startMs,
    endMs,
    bytes: whole.bytes,
    file: relative,
    mime: mimeFor(whole.init),
  };
}

/** The description a recorder wrote beside its segments, if it is one of this recording. */
async function readMeta(path: string, recordingId: string): Promise<NewRecording | undefined> {
  try {
    const m = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    const str = (k: string) => (typeof m[k] === 'string' && (m[k] as string).length > 0 ? (m[k] as string) : undefined);
    const int = (k: string) => (Number.isSafeInteger(m[k]) ? (m[k] as number) : undefined);
    const cameraId = str('cameraId');
    const shipId = str('shipId');
    const recordConfigId = str('recordConfigId');
    const templateId = int('templateId');
    const startMs = int('startMs');
    if (str('id') !== recordingId || !cameraId || !shipId || !recordConfigId || templateId === undefined || startMs === undefined) return undefined;
    return { id: recordingId, cameraId, shipId, recordConfigId, templateId, startMs };
  } catch {
    return undefined;
  }
}

async function hasPlayableSegment(folder: string): Promise<boolean> {
  for (const name of await readdir(folder)) {
    if (parseSegmentFileName(name) && (await wholeFmp4Mime(join(folder, name)))) return true;
  }
  return false;
}

/** The MIME type of a file that parses as an init segment and whole fragments; undefined otherwise. */
async function wholeFmp4Mime(path: string): Promise<string | undefined> {
  try {
    const splitter = new RelaySplitter();
    const units = splitter.push(await readFile(path));
    splitter.end();
    const init = units.find((u) => u.kind === 'init');
    return init && init.kind === 'init' && units.some((u) => u.kind === 'fragment') ? mimeFor(init) : undefined;
  } catch {
    return undefined;
  }
}
