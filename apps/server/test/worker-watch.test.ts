import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deadWorkers } from '../../../scripts/vitest/worker-watch-reporter.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function notes(entries: object[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'worker-watch-'));
  dirs.push(dir);
  for (const [i, entry] of entries.entries()) writeFileSync(join(dir, `${i}.json`), JSON.stringify(entry));
  writeFileSync(join(dir, 'torn.json'), '{"pid": 9'); // a note cut short is passed over
  return dir;
}

describe("the unit run's watch on its test workers", () => {
  it('names the file and test of a worker that died without exiting, or exited with an error code', () => {
    const since = '2026-11-30T05:00:00.000Z';
    const dir = notes([
      { pid: 101, file: '/a.test.ts', test: 'stopped by the run', since, exitCode: 0, stoppedBy: 'SIGTERM' },
      { pid: 102, file: '/b.test.ts', test: 'still running', since },
      { pid: 103, file: '/c.test.ts', test: 'crashed', since },
      { pid: 104, file: '/d.test.ts', test: 'called exit', since, exitCode: 3 },
    ]);
    const lines = deadWorkers(dir, (pid) => pid === 102).sort();
    expect(lines).toEqual([
      `test worker 103 died without exiting (a crash or a signal) in /c.test.ts › crashed, since ${since}`,
      `test worker 104 exited with code 3 in /d.test.ts › called exit, since ${since}`,
    ]);
  });

  it('says nothing when no worker left a note', () => {
    expect(deadWorkers(join(tmpdir(), 'worker-watch-none-here'))).toEqual([]);
  });
});
