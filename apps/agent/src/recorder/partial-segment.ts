import { readFileSync, truncateSync } from 'node:fs';
import { wholeFragments } from '@ship-cctv/media';

/** The most bytes one box of a recorded segment may take (one fragment of ≤ 1 s is far below). */
const MAX_BOX_BYTES = 64 * 1024 * 1024;

/**
 * A segment file ffmpeg was writing when the agent stopped without closing it (killed, power
 * lost): cut back to its last whole fragment — a fragment half written, or a moof without its
 * mdat, is dropped from the file — and how long its whole fragments' video lasts. Undefined when
 * it holds no whole fragment (nothing in it can be played) or cannot be read.
 */
export function keepWholeFragments(path: string): { bytes: number; durationMs: number } | undefined {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch {
    return undefined;
  }
  const whole = wholeFragments(data, { maxBoxBytes: MAX_BOX_BYTES });
  if (!whole) return undefined;
  if (whole.bytes < data.length) {
    try {
      truncateSync(path, whole.bytes);
    } catch {
      return undefined;
    }
  }
  return { bytes: whole.bytes, durationMs: whole.durationMs };
}

/** `<runId>-<n>.mp4` (recorder-args.ts): the run that wrote a segment file and its place in it. */
export function parseRunFile(file: string): { runId: string; index: number } | undefined {
  const m = /^(.+)-(\d{5,})\.mp4$/.exec(file);
  return m ? { runId: m[1]!, index: Number(m[2]) } : undefined;
}

/** Waits without an event loop (start-up, before anything else runs). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether process `pid` is running with `needle` in its command line (Linux /proc; elsewhere: not known, false). */
function runningWith(pid: number, needle: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(needle);
  } catch {
    return false;
  }
}

/**
 * Whether process `pid`, once seen running, has not finished exiting: a process on its way out has
 * an empty command line already (its memory is gone) while it still closes its files; only a
 * zombie waiting to be reaped, or no process at all, is done.
 */
function stillExiting(pid: number): boolean {
  try {
    if (readFileSync(`/proc/${pid}/cmdline`, 'latin1') !== '') return false;
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/**
 * The recorder's ffmpeg of an agent that died without stopping it (killed: its exit hook never
 * ran) goes on writing the run's segments. Before they are read it is stopped — SIGTERM, so it
 * writes out its last fragment and closes its file, then SIGKILL if it lingers — and waited for.
 * Only a process whose command line names the run's files (`runPath`: the folder and run id) is
 * touched: its id may since have gone to another process.
 */
export function stopLeftoverWriter(pid: number, runPath: string, graceMs = 3_000): void {
  if (!runningWith(pid, runPath)) return;
  for (const [signal, waitMs] of [['SIGTERM', graceMs], ['SIGKILL', 1_000]] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    for (let waited = 0; waited < waitMs; waited += 20) {
      if (!runningWith(pid, runPath) && !stillExiting(pid)) return;
      pause(20);
    }
  }
}
