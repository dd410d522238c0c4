import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedSpan } from '@ship-cctv/protocol';
import type { CameraKind, CameraRecording, CameraSource, RecordingStore } from '../../src/camera-source.ts';
import { CameraSources } from '../../src/camera-sources.ts';
import { shipGaps } from '../../src/recorder/gap-causes.ts';
import { ShipRecorder } from '../../src/recorder/ship-recorder.ts';

const T0 = Date.UTC(2026, 10, 29, 8);
const MIN = 60_000;
const facts = { runs: [{ start: T0, end: T0 + 60 * MIN }], firstStart: T0, retentionHorizon: 0, diskFullUntil: undefined, silences: [] };

describe('the causes of the ship recorder’s gaps', () => {
  it('says the agent was stopped outside its run periods, and knows nothing before its first run', () => {
    const runs = [{ start: T0, end: T0 + 10 * MIN }, { start: T0 + 20 * MIN, end: T0 + 60 * MIN }];
    const recorded = [{ start: T0, end: T0 + 10 * MIN }, { start: T0 + 20 * MIN, end: T0 + 30 * MIN }];
    expect(shipGaps(recorded, T0 - 5 * MIN, T0 + 30 * MIN, { ...facts, runs })).toEqual([
      { start: T0 - 5 * MIN, end: T0, cause: 'unknown' },
      { start: T0 + 10 * MIN, end: T0 + 20 * MIN, cause: 'agentStopped' },
    ]);
  });

  it('says a camera was silent where it sent nothing while the agent ran, and unknown for the rest', () => {
    const recorded = [{ start: T0, end: T0 + 10 * MIN }, { start: T0 + 20 * MIN, end: T0 + 30 * MIN }];
    const silences = [{ start: T0 + 10 * MIN, end: T0 + 15 * MIN }];
    expect(shipGaps(recorded, T0, T0 + 30 * MIN, { ...facts, silences })).toEqual([
      { start: T0 + 10 * MIN, end: T0 + 15 * MIN, cause: 'cameraSilent' },
      { start: T0 + 15 * MIN, end: T0 + 20 * MIN, cause: 'unknown' },
    ]);
  });

  it('says disk full up to where recordings were deleted to make room, and retention before the days kept', () => {
    const recorded = [{ start: T0 + 30 * MIN, end: T0 + 60 * MIN }];
    const gaps = shipGaps(recorded, T0, T0 + 60 * MIN, { ...facts, retentionHorizon: T0 + 5 * MIN, diskFullUntil: T0 + 30 * MIN, silences: [{ start: T0 + 20 * MIN, end: T0 + 25 * MIN }] });
    // Deleted for room outranks the camera's silence: whatever the camera sent then is gone either way.
    expect(gaps).toEqual([
      { start: T0, end: T0 + 5 * MIN, cause: 'retention' },
      { start: T0 + 5 * MIN, end: T0 + 30 * MIN, cause: 'diskFull' },
    ]);
  });
});

// A camera kind whose recording is spans in memory and a store of "files" (one per recorded span):
// the ship recorder's own bookkeeping (run log, silences, retention) is what is tested.
class MemoryRecording implements CameraRecording, RecordingStore {
  files: (RecordedSpan & { bytes: number })[] = [];
  private added: (() => void)[] = [];
  readonly store = this;
  spans(start: number, end: number): RecordedSpan[] {
    return this.files.filter((f) => f.end > start && f.start < end).map((f) => ({ start: Math.max(f.start, start), end: Math.min(f.end, end) }));
  }
  playbackRun(): never {
    throw new Error('not played here');
  }
  start(): void {}
  async stop(): Promise<void> {}
  add(start: number, end: number, bytes: number): void {
    this.files.push({ start, end, bytes });
    for (const l of this.added) l();
  }
  totalBytes(): number {
    return this.files.reduce((s, f) => s + f.bytes, 0);
  }
  oldestStart(): number | undefined {
    return this.files[0]?.start;
  }
  removeOldest(): { bytes: number; end: number } | undefined {
    return this.files.shift();
  }
  expire(horizon: number): void {
    this.files = this.files.filter((f) => f.end > horizon);
  }
  onAdded(listener: () => void): void {
    this.added.push(listener);
  }
}

function memoryKind(recordings: Map<string, MemoryRecording>): CameraKind {
  return {
    takes: (source) => source === 'memory',
    create(camera): CameraSource {
      const rec = new MemoryRecording();
      recordings.set(camera.cameraId, rec);
      return {
        camera,
        initialState: () => ({ cameraId: camera.cameraId, online: true, recording: true, recordingSince: null }),
        hold: () => () => undefined,
        online: undefined,
        startLive: () => Promise.resolve({ kind: 'failed', reason: 'not here' }),
        openRecording: () => rec,
        shoot: () => Promise.reject(new Error('not here')),
        ptz: undefined,
        speaker: undefined,
      };
    },
  };
}

describe('the ship recorder answers vod.query with its gaps and their causes', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('carries camera silent, agent stopped (across a restart) and disk full in the answer', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gap-causes-'));
    dirs.push(dataDir);
    let now = T0;
    const clock = () => now;
    const make = () => {
      const recordings = new Map<string, MemoryRecording>();
      const sources = new CameraSources([{ cameraId: 'C1', source: 'memory' }], { kinds: [memoryKind(recordings)], dataDir });
      const recorder = new ShipRecorder(sources, { dataDir, now: clock, maxBytes: 3_000, minFreeBytes: 0, diskFree: () => undefined, retentionEveryMs: 3_600_000 });
      return { recorder, rec: recordings.get('C1')! };
    };

    // First run: 10 min recorded, then the camera is silent 5 min, then 5 min recorded.
    const first = make();
    first.recorder.start();
    first.rec.add(T0, T0 + 10 * MIN, 1_000);
    now = T0 + 10 * MIN;
    first.recorder.cameraSending('C1', false);
    now = T0 + 15 * MIN;
    first.recorder.cameraSending('C1', true);
    first.rec.add(T0 + 15 * MIN, T0 + 20 * MIN, 1_000);
    now = T0 + 20 * MIN;
    await first.recorder.stop();

    // The agent is off 10 min; the second run keeps the first run's files and records on.
    now = T0 + 30 * MIN;
    const second = make();
    second.rec.files = first.rec.files.map((f) => ({ ...f }));
    second.recorder.start();
    now = T0 + 40 * MIN;
    second.rec.add(T0 + 30 * MIN, T0 + 40 * MIN, 1_000);

    const answer = second.recorder.query({ requestId: 7, cameraId: 'C1', start: T0, end: T0 + 40 * MIN });
    expect(answer).toEqual({
      type: 'vod.result',
      requestId: 7,
      cameraId: 'C1',
      spans: [
        { start: T0, end: T0 + 10 * MIN },
        { start: T0 + 15 * MIN, end: T0 + 20 * MIN },
        { start: T0 + 30 * MIN, end: T0 + 40 * MIN },
      ],
      gaps: [
        { start: T0 + 10 * MIN, end: T0 + 15 * MIN, cause: 'cameraSilent' },
        { start: T0 + 20 * MIN, end: T0 + 30 * MIN, cause: 'agentStopped' },
      ],
    });

    // A fourth file passes the 3,000 bytes given: the oldest goes, and its time reads disk full.
    now = T0 + 50 * MIN;
    second.rec.add(T0 + 40 * MIN, T0 + 50 * MIN, 1_000);
    const after = second.recorder.query({ requestId: 8, cameraId: 'C1', start: T0, end: T0 + 50 * MIN });
    expect(after.type === 'vod.result' && after.gaps).toEqual([
      { start: T0, end: T0 + 10 * MIN, cause: 'diskFull' },
      { start: T0 + 10 * MIN, end: T0 + 15 * MIN, cause: 'cameraSilent' },
      { start: T0 + 20 * MIN, end: T0 + 30 * MIN, cause: 'agentStopped' },
    ]);
    await second.recorder.stop();
  });
});
