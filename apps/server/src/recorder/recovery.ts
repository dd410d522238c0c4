import { mkdir, readFile, readdir, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Fmp4Splitter, mimeFor } from '../media/fmp4.ts';
import { PARTIAL_SUFFIX, parseSegmentFileName } from './segment-file.ts';
import type { RecordingStore } from './store.ts';

export interface RecoveryResult {
  /** `.part` files of segments being written when the server stopped. */
  removedPartials: number;
  /** Finished files that had not been indexed yet, now indexed. */
  recovered: number;
  /** Files or folders the index no longer knows (deleted recordings, retention interrupted). */
  removedOrphans: number;
  /** Recordings that were open when the server stopped, now closed. */
  closed: number;
}

/** Folder of exported clips under the recordings folder (emptied at start). */
export const CLIPS_FOLDER = '.clips';

/**
 * Start-up: brings the recordings folder and the index back in step after a crash. Each recording
 * has a folder of its own, made before its index row; a crash leaves at most one `.part` file per
 * recording (removed), and possibly one finished file renamed but not yet indexed (indexed now,
 * after checking it parses as a whole fMP4). Only folders in this server's recordings folder are
 * touched: other instances sharing the database keep theirs.
 */
export async function recoverRecordings(store: RecordingStore, root: string): Promise<RecoveryResult> {
  const result: RecoveryResult = { removedPartials: 0, recovered: 0, removedOrphans: 0, closed: 0 };
  await mkdir(root, { recursive: true });
  await rm(join(root, CLIPS_FOLDER), { recursive: true, force: true });
  const entries = await readdir(root, { withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const recordingId = entry.name;
    const folder = join(root, recordingId);
    const recording = await store.recording(recordingId);
    if (!recording) {
      await rm(folder, { recursive: true, force: true });
      result.removedOrphans++;
      continue;
    }
    const indexed = await store.segmentFiles(recordingId);
    let maxSeq = await store.maxSeq(recordingId);
    const names = (await readdir(folder)).sort();
    for (const name of names) {
      const relative = join(recordingId, name);
      if (indexed.has(relative)) continue;
      if (name.endsWith(PARTIAL_SUFFIX)) {
        await unlink(join(root, relative));
        result.removedPartials++;
        continue;
      }
      const parsed = parseSegmentFileName(name);
      const mime = parsed && parsed.seq > maxSeq ? await wholeFmp4Mime(join(root, relative)) : undefined;
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
      maxSeq = parsed.seq;
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

/** The MIME type of a file that parses as an init segment and whole fragments; undefined otherwise. */
async function wholeFmp4Mime(path: string): Promise<string | undefined> {
  try {
    const splitter = new Fmp4Splitter();
    const units = splitter.push(await readFile(path));
    splitter.end();
    const init = units.find((u) => u.kind === 'init');
    return init && init.kind === 'init' && units.some((u) => u.kind === 'fragment') ? mimeFor(init.codec) : undefined;
  } catch {
    return undefined;
  }
}
