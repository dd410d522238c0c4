import { readdir, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CLIPS_FOLDER } from './recovery.ts';
import { RECORDING_META_FILE, parseSegmentFileName } from './segment-file.ts';
import type { RecordingStore } from './repo.ts';

/** Job kind of the retention pass that runs once across instances (on the index and the shared store). */
export const RETENTION_JOB_KIND = 'recordings.retention';

export interface LocalSweepResult {
  files: number;
  folders: number;
}

/**
 * Retention runs once in the cluster, on whichever instance holds the job: it deletes index rows,
 * the shared copies and its own disk's files. A segment written by another instance stays on that
 * instance's disk, so each instance drops, from its own folder, the segment files the index no
 * longer holds that start no later than the newest segment retention has deleted (`retiredUpTo`,
 * carried from run to run in the job's result). Retention deletes the oldest first, so such a
 * file was retired — or, never indexed (a database outage), would have been the next to go; a
 * recent file waiting for its index row starts later and is left alone, as are the recordings
 * this instance is writing now (`busy`).
 */
export async function sweepRetiredFiles(store: RecordingStore, root: string, retiredUpTo: number, busy: ReadonlySet<string>): Promise<LocalSweepResult> {
  const result: LocalSweepResult = { files: 0, folders: 0 };
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return result;
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name === CLIPS_FOLDER || busy.has(entry.name)) continue;
    const recordingId = entry.name;
    const folder = join(root, recordingId);
    const names = await readdir(folder).catch(() => [] as string[]);
    const retired = names.filter((name) => {
      const parsed = parseSegmentFileName(name);
      return parsed !== undefined && parsed.startMs <= retiredUpTo;
    });
    if (retired.length === 0) continue;
    const indexed = await store.segmentFiles(recordingId);
    let left = names.length;
    for (const name of retired) {
      if (indexed.has(join(recordingId, name))) continue;
      await unlink(join(folder, name)).catch(() => undefined);
      result.files++;
      left--;
    }
    // Only its description left, and the index no longer knows the recording: the folder goes too.
    if (left === 1 && names.includes(RECORDING_META_FILE) && !(await store.recording(recordingId))) {
      await rm(folder, { recursive: true, force: true });
      result.folders++;
    }
  }
  return result;
}
