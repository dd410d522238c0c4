import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isSupportedNode } from '../../../scripts/node-runtime.mjs';
import { formatDuration, formatStageTable, runGroups, runStage } from '../../../scripts/test-stages.mjs';

const node = (name: string, code: string) => ({ name, command: process.execPath, args: ['-e', code] });

describe("npm test's stages", () => {
  it('runs a parallel group side by side, holds each stage’s output and prints it whole', async () => {
    // Each stage leaves a mark and waits for the other's: only stages that run at once both pass.
    const dir = mkdtempSync(join(tmpdir(), 'test-stages-'));
    const meet = (me: string, other: string, lines: string) =>
      node(
        me,
        `const fs = require('node:fs'); fs.writeFileSync(${JSON.stringify(join(dir, me))}, '');
         const until = Date.now() + 20000;
         (function wait() {
           if (fs.existsSync(${JSON.stringify(join(dir, other))})) { console.log(${JSON.stringify(lines)}); return; }
           if (Date.now() > until) process.exit(9);
           setTimeout(wait, 20);
         })();`,
      );
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    const said: string[] = [];
    try {
      const results = await runGroups([{ name: 'checks', parallel: true, stages: [meet('slow', 'fast', 'slow a\nslow b'), meet('fast', 'slow', 'fast')] }], {
        cwd: process.cwd(),
        say: (m) => said.push(m),
      });
      expect(results.map((r) => [r.name, r.code])).toEqual([
        ['slow', 0],
        ['fast', 0],
      ]);
      expect(written.join('')).toContain('slow a\nslow b\n');
      expect(said[0]).toBe('checks: slow ‖ fast');
    } finally {
      write.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops after the group with a failed stage, and inside a sequential group at the failed stage', async () => {
    const ran: string[] = [];
    const run = async (stage: { name: string }) => {
      ran.push(stage.name);
      return { name: stage.name, code: stage.name.endsWith('!') ? 3 : 0, seconds: 1, output: '' };
    };
    const results = await runGroups(
      [
        { name: 'checks', parallel: true, stages: [node('typecheck!', ''), node('lint', '')] },
        { name: 'unit', stages: [node('unit', '')] },
      ],
      { cwd: process.cwd(), say: () => undefined, run },
    );
    expect(ran).toEqual(['typecheck!', 'lint']);
    expect(results.map((r) => r.code)).toEqual([3, 0]);

    ran.length = 0;
    await runGroups([{ name: 'e2e', stages: [node('e2e!', ''), node('e2e-player', '')] }], { cwd: process.cwd(), say: () => undefined, run });
    expect(ran).toEqual(['e2e!']);
  });

  it('passes on the exit code of a real stage', async () => {
    const result = await runStage(node('fails', 'process.exit(7)'), { cwd: process.cwd(), hold: true });
    expect(result.code).toBe(7);
  });

  it('prints each stage’s time and the total', () => {
    expect(formatDuration(42.4)).toBe('42 s');
    expect(formatDuration(125)).toBe('2 min 05 s');
    const table = formatStageTable(
      [
        { name: 'typecheck', code: 0, seconds: 95, output: '' },
        { name: 'e2e', code: 1, seconds: 600, output: '' },
      ],
      700,
    );
    expect(table.split('\n')).toEqual(['[test] stage times:', '  typecheck   1 min 35 s  passed', '  e2e        10 min 00 s  FAILED', '  total      11 min 40 s']);
  });
});

describe('the Node.js the project runs on', () => {
  it('is 22.13 or newer: Node 20 is past its end of life', () => {
    expect(isSupportedNode('20.19.0')).toBe(false);
    expect(isSupportedNode('22.12.0')).toBe(false);
    expect(isSupportedNode('22.13.0')).toBe(true);
    expect(isSupportedNode('24.11.1')).toBe(true);
    expect(isSupportedNode('25.0.0')).toBe(true);
  });
});
