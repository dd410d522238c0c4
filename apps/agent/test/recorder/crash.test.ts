import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Fmp4Splitter, wholeFragments } from '@ship-cctv/media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_FILE, type Segment, SegmentIndex, type Writer } from '../../src/recorder/segment-index.ts';
import { FRAGMENT_SECONDS } from '../../src/recorder/recorder-args.ts';
import { probeFile, run, tempDir } from '../media/helpers.ts';
import { makeCameraFile } from './helpers.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const FIXTURE = 'apps/agent/test/recorder/fixtures/record-until-killed.ts';
/** Segments of 4 s of a camera with a keyframe every 4 s: a fragment per keyframe alone would hold the whole segment. */
const SEGMENT_SECONDS = 4;
const GOP_FRAMES = 40;

const tmp = tempDir('recorder-crash-');
let camera: string;
const children: ChildProcess[] = [];
const ffmpegs: number[] = [];
beforeAll(async () => {
  camera = await makeCameraFile(join(tmp.dir, 'deck-camera.mp4'), { seconds: 12, gop: GOP_FRAMES });
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const pid of ffmpegs) {
    try {
      if (!stopped(pid)) process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  tmp.remove();
});

interface IndexOnDisk {
  segments: Segment[];
  open: Omit<Segment, 'bytes'> | null;
  writer?: Writer | null;
}

const readIndex = (dir: string): IndexOnDisk | undefined => {
  try {
    return JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')) as IndexOnDisk;
  } catch {
    return undefined;
  }
};

/** The whole fragments of the segment being written, once one segment is closed (none before). */
function openSegment(dir: string): { seconds: number; fragments: number } {
  const index = readIndex(dir);
  if (!index?.open || index.segments.length < 1) return { seconds: 0, fragments: 0 };
  try {
    const whole = wholeFragments(readFileSync(join(dir, index.open.file)));
    return whole ? { seconds: (whole.endTick - whole.startTick) / whole.init.timescale, fragments: whole.fragments } : { seconds: 0, fragments: 0 };
  } catch {
    return { seconds: 0, fragments: 0 };
  }
}

/** The process is gone, or a zombie waiting to be reaped (it writes nothing more). */
function stopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return !existsSync(`/proc/${pid}`);
  }
}

/** ffmpeg decodes the whole file without a single error message. */
async function decodesCleanly(file: string): Promise<boolean> {
  const { stderr } = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
  return stderr.trim() === '';
}

/**
 * Starts a recorder in a child process and waits until it records one segment and 2 s of the next;
 * then, for the kill to come at the worst moment, until a fragment has just landed in the file and
 * most of the next one is gathered in ffmpeg (0.8 of a fragment's time later).
 */
async function recordUntilMidSegment(dir: string, detached: boolean): Promise<{ child: ChildProcess; before: IndexOnDisk; ffmpeg: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, dir, camera, String(SEGMENT_SECONDS)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached,
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('recording') && resolve());
    child.once('exit', (code) => reject(new Error(`recorder exited early (${code})`)));
  });
  await expect.poll(() => openSegment(dir).seconds, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(2);
  const landed = openSegment(dir).fragments;
  await expect.poll(() => openSegment(dir).fragments, { timeout: 10_000, interval: 5 }).toBeGreaterThan(landed);
  await new Promise((r) => setTimeout(r, 0.8 * FRAGMENT_SECONDS * 1_000));
  const before = readIndex(dir)!;
  const ffmpeg = before.writer?.pid;
  expect(ffmpeg).toBeTypeOf('number');
  ffmpegs.push(ffmpeg!);
  return { child, before, ffmpeg: ffmpeg! };
}

/** Every segment decodes cleanly, has its file's size, and follows the one before it without a gap. */
async function expectListedAndPlayable(dir: string, segments: readonly Segment[]): Promise<void> {
  for (const [i, s] of segments.entries()) {
    expect(await decodesCleanly(join(dir, s.file))).toBe(true);
    expect((await probeFile(join(dir, s.file))).keyframes[0]).toBe(0);
    expect(readFileSync(join(dir, s.file)).length).toBe(s.bytes);
    if (i > 0) expect(s.start).toBe(segments[i - 1]!.end);
  }
}

describe('the ship recorder killed in the middle of a segment', () => {
  it('writes fragments of at most half a second, each in the file as soon as it is complete', async () => {
    const dir = join(tmp.dir, 'fragments');
    // (recordUntilMidSegment waits for 2 s of whole fragments in the file ffmpeg is writing)
    const { child, before } = await recordUntilMidSegment(dir, true);
    process.kill(-child.pid!, 'SIGKILL');
    const bytes = readFileSync(join(dir, before.segments[0]!.file));
    const units = new Fmp4Splitter().push(bytes);
    const init = units.find((u) => u.kind === 'init');
    const durations = units.flatMap((u) => (u.kind === 'fragment' && init?.kind === 'init' ? [u.duration / init.timescale] : []));
    // A camera with a keyframe every 4 s, yet fragments of half a second.
    expect(durations.length).toBeGreaterThanOrEqual(SEGMENT_SECONDS / FRAGMENT_SECONDS - 1);
    expect(Math.max(...durations)).toBeLessThanOrEqual(FRAGMENT_SECONDS + 1e-6);
  }, 120_000);

  it('with its ffmpeg (SIGKILL to both): the next start keeps the segment up to its last whole fragment, at most 1 s lost', async () => {
    const dir = join(tmp.dir, 'killed-with-ffmpeg');
    const { child, before, ffmpeg } = await recordUntilMidSegment(dir, true);
    const killedAt = Date.now();
    process.kill(-child.pid!, 'SIGKILL');
    await expect.poll(() => stopped(ffmpeg) && child.exitCode === null && child.signalCode !== null, { timeout: 10_000, interval: 20 }).toBe(true);

    const index = new SegmentIndex(dir);
    const segments = index.all;
    expect(segments.map((s) => s.file)).toEqual([...before.segments.map((s) => s.file), before.open!.file]);
    expect(segments.slice(0, -1)).toEqual(before.segments);
    await expectListedAndPlayable(dir, segments);
    const kept = segments.at(-1)!;
    expect(kept.end - kept.start).toBeGreaterThanOrEqual(2_000);
    // Media lost: from the recovered segment's end to the kill, both on the recorder's clock (the
    // index places video in wall-clock time from ffmpeg's reported output time). The camera's
    // video is copied, not encoded: no encoder latency is in it. The test camera has no B-frames
    // (as most IP cameras): with them ffmpeg reports output time ahead of the pictures read, and the
    // index places the whole recording that much later, which would hide a loss of that size.
    const lostMs = killedAt - kept.end;
    console.log(`ship recorder and its ffmpeg killed (SIGKILL) mid-segment: media lost ${lostMs} ms (recovered segment ${kept.end - kept.start} ms)`);
    expect(lostMs).toBeLessThanOrEqual(1_000);
    expect(index.open).toBeNull();
  }, 120_000);

  it('alone (SIGKILL), its ffmpeg left running: the next start stops that ffmpeg and keeps what it wrote', async () => {
    const dir = join(tmp.dir, 'killed-alone');
    const { child, before, ffmpeg } = await recordUntilMidSegment(dir, false);
    const killedAt = Date.now();
    child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)));
    const leftRunning = !stopped(ffmpeg);

    const index = new SegmentIndex(dir);
    expect(stopped(ffmpeg)).toBe(true);
    const segments = index.all;
    expect(segments.slice(0, before.segments.length)).toEqual(before.segments);
    expect(segments.map((s) => s.file)).toContain(before.open!.file);
    await expectListedAndPlayable(dir, segments);
    const last = segments.at(-1)!;
    const lostMs = killedAt - last.end;
    console.log(`ship recorder killed alone (SIGKILL) mid-segment, its ffmpeg ${leftRunning ? 'left running until the next start' : 'gone with it'}: media lost ${Math.max(0, lostMs)} ms (recording reached ${last.end - killedAt} ms past the kill)`);
    expect(lostMs).toBeLessThanOrEqual(1_000);
  }, 120_000);
});
