import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SnapshotTaskSpec, type TaskShotReport, taskShotCount } from '@ship-cctv/protocol';
import { TaskRunner } from '../../src/pictures/task-runner.ts';
import { tempDir } from '../media/helpers.ts';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 25, 0, 0, 0);
const task = (over: Partial<SnapshotTaskSpec> = {}): SnapshotTaskSpec => ({ taskId: 'task-0001', cameraIds: ['C1', 'C2'], everyMs: HOUR / 4, start: T0, end: T0 + HOUR, width: 640, height: 360, ...over });

function rig(file?: string, fail = new Set<string>()) {
  const clock = { now: T0 - 1 };
  const shot: string[] = [];
  const reports: TaskShotReport[] = [];
  const runner = new TaskRunner(file, {
    now: () => clock.now,
    shoot: async (t, cameraId, index) => {
      shot.push(`${cameraId}#${index}`);
      return fail.has(cameraId) ? { reason: 'camera down' } : { pictureId: `${t.taskId}_${index}_${cameraId}` };
    },
    report: (_id, shots) => reports.push(...shots),
  });
  return { runner, clock, shot, reports };
}

describe('the ship’s snapshot task runner', () => {
  it('takes each due shot of each camera once, in time order, and reports failures with the reason', async () => {
    const { runner, clock, shot, reports } = rig(undefined, new Set(['C2']));
    runner.replace([task()]);
    await runner.tick();
    expect(shot).toEqual([]);
    clock.now = T0 + HOUR / 4;
    await runner.tick();
    await runner.tick();
    expect(shot).toEqual(['C1#0', 'C2#0', 'C1#1', 'C2#1']);
    expect(reports.filter((r) => r.outcome === 'failed').map((r) => r.reason)).toEqual(['camera down', 'camera down']);
    clock.now = T0 + 10 * HOUR;
    await runner.tick();
    // Shots 2 and 3 were due long ago (the agent was not running): reported missed, not taken late.
    expect(shot).toHaveLength(4);
    expect(reports.slice(4).map((r) => [r.index, r.outcome, r.reason?.startsWith('missed')])).toEqual([
      [2, 'failed', true],
      [2, 'failed', true],
      [3, 'failed', true],
      [3, 'failed', true],
    ]);
    expect(taskShotCount(task())).toBe(4);
  });

  it('keeps tasks and what was shot across a restart, and drops a task shore no longer lists', async () => {
    const d = tempDir('task-runner-');
    dirs.push(d);
    const file = join(d.dir, 'tasks.json');
    const first = rig(file);
    first.runner.replace([task()]);
    first.clock.now = T0;
    await first.runner.tick();
    expect(first.shot).toEqual(['C1#0', 'C2#0']);

    const second = rig(file);
    second.clock.now = T0 + 1;
    await second.runner.tick();
    expect(second.shot).toEqual([]);
    expect(second.runner.shots('task-0001')).toHaveLength(2);
    second.clock.now = T0 + HOUR / 4;
    await second.runner.tick();
    expect(second.shot).toEqual(['C1#1', 'C2#1']);

    expect(second.runner.replace([])).toEqual([]);
    second.clock.now = T0 + HOUR / 2;
    await second.runner.tick();
    expect(second.shot).toEqual(['C1#1', 'C2#1']);
    expect(rig(file).runner.tasks).toEqual([]);
  });
});
