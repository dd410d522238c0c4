import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RecordedSpan } from '@ship-cctv/protocol';

/** A camera's silence: `end` undefined while it lasts. */
interface Silence {
  start: number;
  end?: number;
}

interface GapFactsFile {
  silences: Record<string, Silence[]>;
  diskFullUntil: Record<string, number>;
}

export interface GapFactsOptions {
  /** Where the facts are kept across restarts; absent = memory only. */
  file?: string;
  /** Silences ending before now − keepMs are forgotten. */
  keepMs: number;
  /**
   * Where a silence left open by an agent that stopped without closing it (a crash) ends: the
   * last moment the run log knows the agent ran. Default: the silence's start.
   */
  lastRunEnd?: number | undefined;
  now?: () => number;
}

/**
 * What the ship recorder keeps to say why a camera's recording has a gap: when each camera sent
 * nothing (or did not answer) while the agent ran, and up to when a camera's recordings were deleted
 * early to make room on the disk. Saved as they change, in the agent's data directory.
 */
export class GapFacts {
  private silences = new Map<string, Silence[]>();
  private diskFull = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly opts: GapFactsOptions) {
    this.now = opts.now ?? Date.now;
    if (opts.file) this.load(opts.file);
  }

  /** The camera sends (true) or has gone silent (false), as the agent sees it now. */
  sending(cameraId: string, sending: boolean): void {
    const list = this.silences.get(cameraId) ?? [];
    const open = list.at(-1)?.end === undefined ? list.at(-1) : undefined;
    if (sending === !open) return;
    const now = this.now();
    if (open) open.end = now;
    else list.push({ start: now });
    const horizon = now - this.opts.keepMs;
    this.silences.set(
      cameraId,
      list.filter((s) => s.end === undefined || s.end > horizon),
    );
    this.save();
  }

  /** The agent stops: silences still open end now (the run log says what follows). */
  closeAll(): void {
    const now = this.now();
    let changed = false;
    for (const list of this.silences.values()) {
      const last = list.at(-1);
      if (last && last.end === undefined) {
        last.end = now;
        changed = true;
      }
    }
    if (changed) this.save();
  }

  /** A recording of the camera that ended at `end` was deleted to make room on the disk. */
  evictedForSpace(cameraId: string, end: number): void {
    if ((this.diskFull.get(cameraId) ?? -Infinity) >= end) return;
    this.diskFull.set(cameraId, end);
    this.save();
  }

  /** The camera's silences, one still lasting up to now. */
  silencesOf(cameraId: string): RecordedSpan[] {
    const now = this.now();
    return (this.silences.get(cameraId) ?? []).map((s) => ({ start: s.start, end: s.end ?? Math.max(now, s.start) }));
  }

  diskFullUntil(cameraId: string): number | undefined {
    return this.diskFull.get(cameraId);
  }

  private load(file: string): void {
    let raw: Partial<GapFactsFile>;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<GapFactsFile>;
    } catch {
      return; // nothing kept yet (or unreadable: start afresh)
    }
    for (const [cameraId, list] of Object.entries(raw.silences ?? {})) {
      if (!Array.isArray(list)) continue;
      // A silence left open by an agent that crashed lasted at most until its last heartbeat;
      // after that the run log says the agent was stopped.
      const openEnd = (start: number) => Math.max(start, this.opts.lastRunEnd ?? start);
      const valid = list.filter((s) => typeof s?.start === 'number').map((s) => ({ start: s.start, end: typeof s.end === 'number' && s.end >= s.start ? s.end : openEnd(s.start) }));
      this.silences.set(cameraId, valid);
    }
    for (const [cameraId, until] of Object.entries(raw.diskFullUntil ?? {})) {
      if (typeof until === 'number') this.diskFull.set(cameraId, until);
    }
  }

  private save(): void {
    const file = this.opts.file;
    if (!file) return;
    const body: GapFactsFile = { silences: Object.fromEntries(this.silences), diskFullUntil: Object.fromEntries(this.diskFull) };
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(body));
      renameSync(`${file}.tmp`, file);
    } catch (err) {
      console.error(`[recorder] cannot save gap facts to ${file}: ${(err as Error).message}`);
    }
  }
}
