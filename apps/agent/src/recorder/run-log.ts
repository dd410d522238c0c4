import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type RecordedSpan, normalizeSpans } from '@ship-cctv/protocol';

/** What the run log file holds. */
interface RunLogFile {
  /** When this data directory first saw the agent run (epoch ms). */
  since: number;
  /** Periods the agent ran, oldest first; the last one may still be running. */
  runs: RecordedSpan[];
}

export interface RunLogOptions {
  /** Where the periods are kept across restarts; absent = memory only (nothing before this start is known). */
  file?: string;
  /** How often the current period's end is moved forward and saved. Default 60 s. */
  heartbeatMs?: number;
  /** Periods ending before now − keepMs are forgotten. */
  keepMs: number;
  now?: () => number;
}

/**
 * The periods the agent was running, kept in its data directory: a period starts at start(), its
 * end moves forward every heartbeat and at stop(). After a crash the last period ends at the last
 * heartbeat, so an agent that was off shows as a gap, never as recorded time.
 */
export class RunLog {
  private since: number | undefined;
  private runs: RecordedSpan[] = [];
  private current: RecordedSpan | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly opts: RunLogOptions) {
    this.now = opts.now ?? Date.now;
    if (opts.file) this.load(opts.file);
  }

  /** The first moment this data directory saw the agent run; undefined before the first start. */
  get firstStart(): number | undefined {
    return this.since;
  }

  start(): void {
    if (this.current) return;
    const now = this.now();
    this.since ??= now;
    this.current = { start: now, end: now };
    this.runs.push(this.current);
    this.save();
    this.timer = setInterval(() => this.beat(), this.opts.heartbeatMs ?? 60_000);
    this.timer.unref();
  }

  stop(): void {
    if (!this.current) return;
    clearInterval(this.timer);
    this.current.end = this.now();
    this.current = undefined;
    this.save();
  }

  /** The run periods, the current one up to now. */
  periods(): RecordedSpan[] {
    if (this.current) this.current.end = Math.max(this.current.end, this.now());
    return normalizeSpans(this.runs);
  }

  private beat(): void {
    if (!this.current) return;
    this.current.end = this.now();
    const horizon = this.now() - this.opts.keepMs;
    this.runs = this.runs.filter((r) => r === this.current || r.end > horizon);
    this.save();
  }

  private load(file: string): void {
    let raw: Partial<RunLogFile>;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunLogFile>;
    } catch {
      return; // no history yet (or unreadable: start a new one)
    }
    if (typeof raw.since === 'number') this.since = raw.since;
    if (Array.isArray(raw.runs)) {
      this.runs = raw.runs.filter((r) => typeof r?.start === 'number' && typeof r.end === 'number' && r.end >= r.start);
    }
  }

  private save(): void {
    const file = this.opts.file;
    if (!file || this.since === undefined) return;
    const body: RunLogFile = { since: this.since, runs: this.runs };
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(body));
      renameSync(`${file}.tmp`, file);
    } catch (err) {
      console.error(`[recorder] cannot save run periods to ${file}: ${(err as Error).message}`);
    }
  }
}
