import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { JobRunner } from './job-runner.ts';

/** How late a timer may run and still name its slot: half the pattern's interval, at most this. */
const MAX_SLOT_TOLERANCE_MS = 30_000;

export interface ScheduleSpec {
  /** Names the schedule; its runs are enqueued as "<name>@<time>", once across instances. */
  name: string;
  /** Cron pattern (croner: 5 or 6 fields, seconds first when 6). */
  pattern: string;
  /** IANA time zone the pattern is read in (e.g. "Asia/Shanghai"). Default UTC. */
  timeZone?: string;
  kind: string;
  payload?: Record<string, unknown>;
}

/**
 * Schedules in time zones that enqueue jobs. Every instance keeps the same schedules; at each
 * fire time each tries to enqueue the run under the key "<name>@<ISO time>", and the jobs table's
 * unique key lets only the first through, so a run happens once however many instances there are.
 */
export class Schedules {
  private readonly crons: Cron[] = [];

  constructor(
    private readonly runner: JobRunner,
    private readonly log: FastifyBaseLogger,
  ) {}

  add(spec: ScheduleSpec): Cron {
    const probe = new Cron(spec.pattern, { timezone: spec.timeZone ?? 'UTC', paused: true });
    const [a, b] = probe.nextRuns(2);
    probe.stop();
    const tolerance = a && b ? Math.min(MAX_SLOT_TOLERANCE_MS, (b.getTime() - a.getTime()) / 2) : 500;
    const cron = new Cron(spec.pattern, { timezone: spec.timeZone ?? 'UTC', protect: true }, (self: Cron) => {
      // The slot that fired, not the moment the timer ran: instances whose timers run a little
      // apart must name the same run. It is the first slot after a moment shortly before now.
      const slot = self.nextRun(new Date(Date.now() - tolerance)) ?? new Date();
      void this.fire(spec, slot);
    });
    this.crons.push(cron);
    return cron;
  }

  /** Enqueues the run of `spec` due at `at` (what a fire does; tests call it with a chosen time). */
  async fire(spec: ScheduleSpec, at: Date): Promise<boolean> {
    const when = new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString();
    try {
      const job = await this.runner.enqueue({ kind: spec.kind, owner: `schedule:${spec.name}`, payload: { ...spec.payload, scheduledAt: when }, uniqueKey: `${spec.name}@${when}` });
      return job !== undefined;
    } catch (err) {
      this.log.error({ err, schedule: spec.name }, 'enqueueing a scheduled job failed');
      return false;
    }
  }

  stop(): void {
    for (const c of this.crons.splice(0)) c.stop();
  }
}
