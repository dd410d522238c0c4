import type { RecordedSpan } from '@ship-cctv/protocol';
import { type CameraRecording, type PlaybackRun, type PlaybackRunRequest, type RunLog } from '@ship-cctv/agent';
import { clipSpans, normalizeSpans, subtractSpans } from '@ship-cctv/protocol';
import type { CameraFonts } from './fonts.ts';
import type { SyntheticActors } from './synthetic-actors.ts';
import { demoGaps } from './demo-gaps.ts';
import { syntheticPlaybackArgs } from './synthetic-playback.ts';

/**
 * The synthetic camera's recorder. Its picture is a function of absolute time, so nothing is stored
 * and nothing is encoded until a playback asks: any moment of the retention window can be drawn.
 * What counts as recorded is the window minus the times the agent was off (its run log). Before the
 * data directory's first run — a fresh demo agent — the whole window counts as recorded except one
 * deterministic gap a day (demoGaps), so the demo has a history with gaps from the first minute.
 */
export class SyntheticRecorder {
  constructor(
    readonly cameraId: string,
    private readonly runs: RunLog,
    private readonly retentionMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Recorded spans overlapping [start, end), clipped to it. */
  spans(start: number, end: number): RecordedSpan[] {
    const now = this.now();
    const windowStart = now - this.retentionMs;
    const from = Math.max(start, windowStart);
    const to = Math.min(end, now);
    if (to <= from) return [];
    const firstRun = this.runs.firstStart ?? now;
    const before: RecordedSpan[] = firstRun > from ? subtractSpans([{ start: from, end: Math.min(firstRun, to) }], demoGaps(this.cameraId, from, firstRun)) : [];
    return clipSpans(normalizeSpans([...before, ...this.runs.periods()]), from, to);
  }
}

/**
 * The synthetic camera's recording as the ship recorder sees it: its spans (SyntheticRecorder), and
 * a playback run draws the moments asked for again (synthetic-playback.ts). Nothing to start or stop.
 */
export class SyntheticRecording implements CameraRecording {
  constructor(
    readonly recorder: SyntheticRecorder,
    private readonly cameraName: string,
    private readonly fonts: () => CameraFonts,
    /** The camera's walkers and boats, drawn again on playback as live showed them. */
    private readonly actors?: SyntheticActors,
  ) {}

  spans(start: number, end: number): RecordedSpan[] {
    return this.recorder.spans(start, end);
  }

  playbackRun(run: PlaybackRunRequest): Promise<PlaybackRun> {
    const args = syntheticPlaybackArgs({
      cameraName: this.cameraName,
      ...this.fonts(),
      encode: run.encode,
      speed: run.speed,
      from: run.from,
      to: run.to,
      ...(this.actors ? { actors: this.actors } : {}),
    });
    return Promise.resolve({ args, from: run.from });
  }

  start(): void {}

  stop(): Promise<void> {
    return Promise.resolve();
  }
}
