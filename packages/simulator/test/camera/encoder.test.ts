import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type EncoderExit, runningEncoderCount, startEncoder } from '../../../../apps/agent/src/media/encoder.ts';
import { urlCameraArgs } from '../../../../apps/agent/src/media/ffmpeg-args.ts';
import { syntheticCameraArgs } from '../../src/camera/synthetic-picture.ts';
import { processGone, spec, tempDir } from '../../../../apps/agent/test/media/helpers.ts';

const tmp = tempDir('encoder-');
afterAll(() => tmp.remove());

const live = () => syntheticCameraArgs({ cameraName: 'Test', encode: spec(320, 180, 10, 200), realtime: true });

describe('startEncoder', () => {
  it('starts, runs on the first byte, and ends on stop() with no process left', async () => {
    const states: string[] = [];
    let exit: EncoderExit | undefined;
    let bytes = 0;
    const enc = startEncoder(live(), {
      firstByteTimeoutMs: 10_000,
      onRunning: () => states.push('running'),
      onData: (c) => (bytes += c.length),
      onExit: (info) => (exit = info),
    });
    expect(enc.state).toBe('starting');
    await expect.poll(() => enc.state, { timeout: 10_000 }).toBe('running');
    const pid = enc.pid!;
    expect(processGone(pid)).toBe(false);
    const info = await enc.stop();
    expect(info).toMatchObject({ state: 'ended', reason: 'stopped' });
    expect(exit).toBe(info);
    expect(info.bytes).toBe(bytes);
    expect(states).toEqual(['running']);
    expect(processGone(pid)).toBe(true);
    expect(runningEncoderCount()).toBe(0);
    // stop() again is harmless and answers the same
    await expect(enc.stop()).resolves.toBe(info);
  });

  it('fails a camera that cannot be opened, with ffmpeg’s own words', async () => {
    const enc = startEncoder(urlCameraArgs({ url: join(tmp.dir, 'missing.mp4'), encode: spec(320, 180, 10, 200) }), { firstByteTimeoutMs: 10_000, onData: () => undefined });
    const info = await enc.exited;
    expect(info.state).toBe('failed');
    expect(info.reason).toMatch(/exited with code [1-9]/);
    expect(info.stderrTail).toMatch(/No such file or directory/);
    expect(processGone(enc.pid!)).toBe(true);
  });

  it('fails an RTSP camera that refuses the connection', async () => {
    const enc = startEncoder(urlCameraArgs({ url: 'rtsp://127.0.0.1:9/none', encode: spec(320, 180, 10, 200) }), { firstByteTimeoutMs: 10_000, onData: () => undefined });
    const info = await enc.exited;
    expect(info.state).toBe('failed');
    expect(info.stderrTail).toMatch(/Connection refused/);
  });

  it('keeps only the last bytes of stderr', async () => {
    const enc = startEncoder(['-e', "process.stderr.write('x'.repeat(10000) + 'THE END'); process.exit(3)"], {
      command: process.execPath,
      firstByteTimeoutMs: 10_000,
      onData: () => undefined,
      stderrTailBytes: 100,
    });
    const info = await enc.exited;
    expect(info).toMatchObject({ state: 'failed', code: 3 });
    expect(info.stderrTail).toHaveLength(100);
    expect(info.stderrTail.endsWith('THE END')).toBe(true);
  });

  it('fails when no byte comes in time, and kills the silent process', async () => {
    const fifo = join(tmp.dir, 'never');
    execFileSync('mkfifo', [fifo]);
    // ffmpeg blocks opening a FIFO nobody writes to.
    const enc = startEncoder(urlCameraArgs({ url: fifo, encode: spec(320, 180, 10, 200) }), { firstByteTimeoutMs: 500, onData: () => undefined });
    const info = await enc.exited;
    expect(info).toMatchObject({ state: 'failed', reason: 'no output within 500 ms' });
    expect(processGone(enc.pid!)).toBe(true);
  });

  it('kills a process that ignores SIGTERM after the grace period', async () => {
    const enc = startEncoder(['-e', "process.on('SIGTERM', () => {}); process.stdout.write('x'); setInterval(() => {}, 1000)"], {
      command: process.execPath,
      firstByteTimeoutMs: 5_000,
      stopGraceMs: 300,
      onData: () => undefined,
    });
    await expect.poll(() => enc.state).toBe('running');
    const info = await enc.stop();
    expect(info).toMatchObject({ state: 'ended', reason: 'stopped', signal: 'SIGKILL' });
    expect(processGone(enc.pid!)).toBe(true);
  });

  it('fails when the program is missing', async () => {
    const enc = startEncoder([], { command: 'ffmpeg-that-is-not-installed', firstByteTimeoutMs: 1_000, onData: () => undefined });
    const info = await enc.exited;
    expect(info.state).toBe('failed');
    expect(info.reason).toMatch(/cannot run ffmpeg-that-is-not-installed: .*ENOENT/);
  });
});
