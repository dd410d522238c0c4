import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';

/** A process is gone when it no longer exists or is a zombie no one has reaped yet. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * A server killed outright (SIGKILL) while an enhancement runs: the enhancement process, forked as
 * the server forks it, ends too instead of upscaling on (its job would run a second time beside
 * it after the restart).
 */
describe('an enhancement process whose server is killed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'enhance-orphan-'));
  let parent: ChildProcess | undefined;
  let childPid: number | undefined;
  afterAll(() => {
    parent?.kill('SIGKILL');
    if (childPid !== undefined && running(childPid)) process.kill(childPid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits within seconds of its parent being killed in the middle of upscaling', async () => {
    // A large picture: hundreds of tiles, minutes of work for the model.
    const input = join(dir, 'large.jpg');
    await sharp({ create: { width: 1920, height: 1080, channels: 3, background: { r: 40, g: 90, b: 160 } } })
      .composite([{ input: Buffer.from('<svg width="1920" height="1080"><text x="100" y="500" font-size="200">ENHANCE</text></svg>'), top: 0, left: 0 }])
      .jpeg()
      .toFile(input);
    const script = fileURLToPath(new URL('./enhance-parent.ts', import.meta.url));
    parent = spawn(process.execPath, ['--import', 'tsx', script, input, join(dir, 'out.jpg')], { stdio: ['ignore', 'pipe', 'inherit'] });
    const proc = parent;
    childPid = await new Promise<number>((resolve, reject) => {
      let text = '';
      proc.stdout?.on('data', (d: Buffer) => {
        const match = /busy (\d+)/.exec((text += d.toString()));
        if (match) resolve(Number(match[1]));
      });
      proc.once('exit', (code) => reject(new Error(`the parent ended first (${code})`)));
    });
    expect(running(childPid)).toBe(true);
    const killedAt = Date.now();
    proc.kill('SIGKILL');
    const pid = childPid;
    await expect.poll(() => running(pid), { timeout: 15_000, interval: 100 }).toBe(false);
    console.log(`enhancement process gone ${Date.now() - killedAt} ms after its parent was killed`);
    expect(existsSync(join(dir, 'out.jpg'))).toBe(false);
  }, 90_000);
});
