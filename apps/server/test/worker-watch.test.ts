import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuTable, deadWorkers } from '../../../scripts/vitest/worker-watch-reporter.mjs';

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
    expect(cpuTable(join(tmpdir(), 'worker-watch-none-here'))).toEqual([]);
  });

  it('prints the CPU of each project and of the files that took the most', () => {
    const dir = notes([]);
    const line = (file: string, ownMs: number, childMs: number) => `${JSON.stringify({ file: `/repo/${file}`, ownMs, childMs })}\n`;
    writeFileSync(join(dir, '7.cpu.jsonl'), line('apps/server/test/a.test.ts', 4_000, 0) + line('apps/agent/test/b.test.ts', 500, 2_500) + '{"file": "/re');
    writeFileSync(join(dir, '8.cpu.jsonl'), line('apps/server/test/c.test.ts', 1_000, 250));
    expect(cpuTable(dir, '/repo', 2)).toEqual([
      'CPU of the 3 test files: 8 s (own = the test process\'s threads, children = processes it ran and reaped)',
      '     own  child  project',
      '     5.0    0.3  apps/server (2 files)',
      '     0.5    2.5  apps/agent (1 files)',
      '     own  child  the 2 files that took the most',
      '     4.0    0.0  apps/server/test/a.test.ts',
      '     0.5    2.5  apps/agent/test/b.test.ts',
    ]);
  });
});
