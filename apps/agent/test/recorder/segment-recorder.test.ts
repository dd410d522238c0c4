import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_FILE } from '../../src/recorder/segment-index.ts';
import { SegmentRecorder } from '../../src/recorder/segment-recorder.ts';
import { CameraSources } from '../../src/camera-sources.ts';
import { ShipRecorder } from '../../src/recorder/ship-recorder.ts';
import { SegmentRecording } from '../../src/url-camera.ts';
import { spansLength } from '@ship-cctv/protocol';
import { probeFile, processGone, tempDir } from '../media/helpers.ts';
import { makeCameraFile } from './helpers.ts';

const tmp = tempDir('segment-recorder-');
let camera: string;
beforeAll(async () => {
  camera = await makeCameraFile(join(tmp.dir, 'deck-camera.mp4'));
});
afterAll(() => tmp.remove());

/** Bytes of the files under `dir`, all levels down. */
function bytesUnder(dir: string): number {
  let sum = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) sum += statSync(join(e.parentPath, e.name), { throwIfNoEntry: false })?.size ?? 0;
  return sum;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the ship recorder of a URL camera', () => {
  it('copies the camera into segments placed in wall-clock time, indexed on disk, readable as MP4', async () => {
    const dir = join(tmp.dir, 'rec-a');
    const rec = new SegmentRecorder('S1-C02-1', camera, dir, { segmentSeconds: 1 });
    const states: [boolean, number | null][] = [];
    rec.on('state', (on, since) => states.push([on, since]));
    const before = Date.now();
    rec.start();
    await expect.poll(() => rec.index.all.length, { timeout: 15_000, interval: 200 }).toBeGreaterThanOrEqual(3);
    const pid = rec.pid!;
    await rec.stop();
    const after = Date.now();
    expect(processGone(pid)).toBe(true);

    expect(states[0]![0]).toBe(true);
    expect(states[0]![1]).toBeGreaterThanOrEqual(before - 1_000);
    expect(states.at(-1)).toEqual([false, null]);
    const segments = rec.index.all;
    expect(rec.index.open).toBeNull();
    for (const [i, s] of segments.entries()) {
      expect(s.start).toBeGreaterThanOrEqual(before - 1_000);
      expect(s.end).toBeLessThanOrEqual(after + 500);
      // About a second each (cut at a keyframe); the last one ends where the recorder stopped.
      if (i < segments.length - 1) expect(s.end - s.start).toBeGreaterThanOrEqual(800);
      expect(s.end).toBeGreaterThan(s.start);
      // Contiguous: the next one starts where this one ended.
      if (i > 0) expect(s.start).toBe(segments[i - 1]!.end);
      expect(s.bytes).toBeGreaterThan(1_000);
      const probe = await probeFile(join(dir, s.file));
      expect(probe).toMatchObject({ codec: 'h264', width: 320, height: 180 });
      expect(probe.keyframes[0]).toBe(0);
    }
    // One run = one span; its length is the recorded time.
    const spans = rec.spans(0, Date.now());
    expect(spans).toHaveLength(1);
    expect(spansLength(spans)).toBeGreaterThan(2_000);
    // The index is on disk.
    const onDisk = JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')) as { segments: unknown[] };
    expect(onDisk.segments).toHaveLength(segments.length);
  });

  it('shows the time it was off as a gap and reloads its index after a restart', async () => {
    const dir = join(tmp.dir, 'rec-b');
    const first = new SegmentRecorder('S1-C02-1', camera, dir, { segmentSeconds: 1 });
    first.start();
    await expect.poll(() => first.index.all.length, { timeout: 15_000, interval: 200 }).toBeGreaterThanOrEqual(2);
    await first.stop();
    const firstEnd = first.index.all.at(-1)!.end;
    await sleep(2_500);
    const second = new SegmentRecorder('S1-C02-1', camera, dir, { segmentSeconds: 1 });
    expect(second.index.all).toEqual(first.index.all);
    second.start();
    await expect.poll(() => second.index.all.length, { timeout: 15_000, interval: 200 }).toBeGreaterThan(first.index.all.length + 1);
    // While recording, the segment being written already counts.
    expect(second.index.open).not.toBeNull();
    await second.stop();
    const spans = second.spans(0, Date.now());
    expect(spans).toHaveLength(2);
    expect(spans[0]!.end).toBe(firstEnd);
    expect(spans[1]!.start - spans[0]!.end).toBeGreaterThan(1_500);
  });

  it('keeps the recording within its age limit', async () => {
    const dir = join(tmp.dir, 'ship-age');
    const recorder = new ShipRecorder(new CameraSources([{ cameraId: 'S1-C02-1', source: camera }]), { dataDir: dir, maxAgeMs: 2_500, segments: { segmentSeconds: 1 } });
    recorder.start();
    const source = recorder.recording('S1-C02-1');
    if (!(source instanceof SegmentRecording)) throw new Error('expected a segment recorder');
    const seen = new Set<string>();
    const track = () => source.recorder.index.all.forEach((s) => seen.add(s.file));
    await expect.poll(() => (track(), seen.size), { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(6);
    await recorder.stop();
    recorder.applyRetention();
    const kept = source.recorder.index.all;
    const now = Date.now();
    expect(kept.every((s) => s.end > now - 2_500)).toBe(true);
    // Deleted from the disk too, and the oldest went first.
    const gone = [...seen].filter((f) => !kept.some((s) => s.file === f));
    expect(gone.length).toBeGreaterThanOrEqual(2);
    for (const f of gone) expect(existsSync(join(dir, 'recordings', 'S1-C02-1', f))).toBe(false);
    for (const s of kept) expect(existsSync(join(dir, 'recordings', 'S1-C02-1', s.file))).toBe(true);
  });

  it('keeps all cameras together within the size limit, deleting the oldest segments first', async () => {
    const dir = join(tmp.dir, 'ship-size');
    const maxBytes = 150_000;
    const recorder = new ShipRecorder(
      new CameraSources([
        { cameraId: 'S1-C02-1', source: camera },
        { cameraId: 'S1-C03-1', source: camera },
      ]),
      { dataDir: dir, maxBytes, segments: { segmentSeconds: 1 } },
    );
    let maxSeen = 0;
    recorder.start();
    const indexes = ['S1-C02-1', 'S1-C03-1'].map((id) => {
      const s = recorder.recording(id);
      if (!(s instanceof SegmentRecording)) throw new Error('expected a segment recorder');
      return s.recorder.index;
    });
    // Every segment seen while recording, by path, with its start.
    const seen = new Map<string, number>();
    const kept = () => new Set(indexes.flatMap((i) => i.all.map((s) => join(i.dir, s.file))));
    await expect
      .poll(
        () => {
          maxSeen = Math.max(maxSeen, recorder.totalBytes());
          for (const i of indexes) for (const s of i.all) seen.set(join(i.dir, s.file), s.start);
          return seen.size - kept().size;
        },
        { timeout: 25_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(3);
    await recorder.stop();
    expect(maxSeen).toBeLessThanOrEqual(maxBytes);
    expect(recorder.totalBytes()).toBeLessThanOrEqual(maxBytes);
    expect(recorder.totalBytes()).toBeGreaterThan(maxBytes / 3);
    // The oldest went first, across both cameras, and are gone from the disk.
    const left = kept();
    const deleted = [...seen].filter(([path]) => !left.has(path));
    const newestDeleted = Math.max(...deleted.map(([, start]) => start));
    const oldestKept = Math.min(...[...left].map((path) => seen.get(path) ?? Infinity));
    expect(newestDeleted).toBeLessThanOrEqual(oldestKept);
    for (const [path] of deleted) expect(existsSync(path)).toBe(false);
    for (const i of indexes) expect(i.all.length).toBeGreaterThan(0);
  });

  it('deletes the oldest segments when the disk is nearly full rather than stop, and says the days asked do not fit', async () => {
    const dir = join(tmp.dir, 'ship-disk');
    // A disk of 250 kB holding only the data directory (a real disk cannot be filled here): its free
    // space is what the files there leave, the segment being written included. 50 kB is kept free.
    const capacity = 250_000;
    const minFreeBytes = 50_000;
    const diskFree = (d: string) => capacity - bytesUnder(d);
    const recorder = new ShipRecorder(new CameraSources([{ cameraId: 'S1-C02-1', source: camera }]), { dataDir: dir, maxAgeMs: 90 * 24 * 3_600_000, minFreeBytes, diskFree, segments: { segmentSeconds: 1 } });
    const storages: unknown[] = [];
    recorder.on('storage', (s) => storages.push(s));
    recorder.start();
    const source = recorder.recording('S1-C02-1');
    if (!(source instanceof SegmentRecording)) throw new Error('expected a segment recorder');
    const index = source.recorder.index;
    const seen = new Set<string>();
    let maxSeen = 0;
    const deleted = () => {
      maxSeen = Math.max(maxSeen, recorder.totalBytes());
      for (const s of index.all) seen.add(s.file);
      return seen.size - index.all.length;
    };
    await expect.poll(deleted, { timeout: 25_000, interval: 100 }).toBeGreaterThanOrEqual(3);
    // Recording goes on after the deletions.
    const lastEnd = index.all.at(-1)!.end;
    await expect.poll(() => index.all.at(-1)!.end, { timeout: 10_000, interval: 100 }).toBeGreaterThan(lastEnd);
    await recorder.stop();
    // The closed segments stay within what the disk gives, beside the one being written.
    expect(maxSeen).toBeLessThanOrEqual(capacity - minFreeBytes);
    const storage = recorder.storage()!;
    expect(storage).toMatchObject({ keepDays: 90, short: true });
    expect(storage.allowedBytes).toBeLessThanOrEqual(capacity - minFreeBytes);
    expect(storage.usedBytes).toBeLessThanOrEqual(storage.allowedBytes);
    expect(storage.freeBytes).toBeGreaterThanOrEqual(minFreeBytes);
    // Told once when first known (nothing recorded yet), once when it turned short.
    expect(storages).toMatchObject([{ holdsDays: null, short: false }, { short: true }]);
  });
});
