import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordingStore, SegmentRow } from './repo.ts';
import type { SharedSegments } from './shared-segments.ts';

export interface RetentionPolicy {
  maxAgeMs: number;
  maxBytes: number;
}

export interface RetentionResult {
  segments: number;
  bytes: number;
  /** Start of the newest segment this pass deleted: every instance may drop unindexed files starting no later (local-retention.ts). */
  newestStartMs?: number;
}

const BATCH = 200;

/**
 * Deletes segments older than the age limit, then the oldest ones until the recordings fit the
 * disk budget. The index row goes first, the file after: a crash in between leaves an unindexed
 * file, never an index entry without its file; start-up recovery indexes that playable file again
 * (it cannot tell it from one a database outage left unindexed) and the next pass removes it.
 */
export async function applyRetention(store: RecordingStore, root: string, policy: RetentionPolicy, now: number, shared?: SharedSegments): Promise<RetentionResult> {
  const result: RetentionResult = { segments: 0, bytes: 0 };
  for (;;) {
    const old = await store.segmentsEndingBefore(now - policy.maxAgeMs, BATCH);
    if (old.length === 0) break;
    await remove(store, root, old, result, shared);
  }
  let total = await store.totalBytes();
  while (total > policy.maxBytes) {
    const oldest = await store.oldestSegments(BATCH);
    if (oldest.length === 0) break;
    const batch: SegmentRow[] = [];
    for (const s of oldest) {
      if (total <= policy.maxBytes) break;
      batch.push(s);
      total -= s.bytes;
    }
    await remove(store, root, batch, result, shared);
  }
  return result;
}

async function remove(store: RecordingStore, root: string, segments: SegmentRow[], result: RetentionResult, shared: SharedSegments | undefined): Promise<void> {
  await store.deleteSegments(segments.map((s) => s.id));
  for (const s of segments) {
    await unlink(join(root, s.file)).catch(() => undefined);
    // The shared copy too (STORAGE=nats); retention runs once across instances, on whichever holds the job.
    await shared?.delete(s.file).catch(() => undefined);
    result.segments++;
    result.bytes += s.bytes;
    result.newestStartMs = Math.max(result.newestStartMs ?? s.startMs, s.startMs);
  }
}
