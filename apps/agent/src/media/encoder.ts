import { type ChildProcess, spawn } from 'node:child_process';

/**
 * A supervised ffmpeg: one child process whose stdout is the stream. Three outcomes are told apart
 * (go2rtc's exec supervisor does the same): the first byte arrives (running), the process exits
 * (ended or failed), or nothing comes within the start time-out (failed, process killed). A
 * failure carries the last ~2 KiB of stderr, which with `-loglevel error` is ffmpeg's own reason.
 *
 *   starting ──first byte──► running ──exit 0 / stop()──► ended
 *       │                       └──────exit ≠ 0─────────► failed
 *       └──exit / time-out / spawn error────────────────► failed
 *
 * onExit fires once, after the process is gone and its stdout drained (Node reaps the child, so
 * none is left a zombie); every child still running when the agent's process exits is killed.
 */

export type EncoderState = 'starting' | 'running' | 'ended' | 'failed';

export interface EncoderExit {
  state: 'ended' | 'failed';
  /** Human-readable: "stopped", "end of stream", "ffmpeg exited with code 1", "no output within 15000 ms" … */
  reason: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Last bytes of stderr (trimmed), at most stderrTailBytes. */
  stderrTail: string;
  /** Bytes of stdout delivered to onData. */
  bytes: number;
}

export interface EncoderOptions {
  /** Fail (and kill the process) when stdout is silent this long after the spawn. */
  firstByteTimeoutMs: number;
  onData(chunk: Buffer): void;
  /** On the first byte of stdout. */
  onRunning?(): void;
  onExit?(info: EncoderExit): void;
  /** SIGTERM first (ffmpeg finishes its output); SIGKILL after this long. Default 2000. */
  stopGraceMs?: number;
  /** Default 2048. */
  stderrTailBytes?: number;
  /** Default "ffmpeg" from PATH. */
  command?: string;
  /** Its input comes from us (`-i pipe:0`): write() and endInput() feed stdin. Default: no stdin. */
  stdin?: boolean;
  /** A second output on fd 3 (`pipe:3`, the sound): its bytes. Default: no fd 3. */
  onSound?(chunk: Buffer): void;
  /** A second input on fd 4 (`-i pipe:4`, the speaker's PCM): writeSpeaker() feeds it. Default: no fd 4. */
  speakerInput?: boolean;
}

export interface Encoder {
  readonly pid: number | undefined;
  readonly state: EncoderState;
  /** Resolves once the process is gone, with how it ended. */
  readonly exited: Promise<EncoderExit>;
  /** Ends the process (SIGTERM, then SIGKILL after the grace period); resolves when it is gone. */
  stop(): Promise<EncoderExit>;
  /** With `stdin`: feeds input (dropped once the process is gone). False when the pipe is full. */
  write(chunk: Buffer): boolean;
  /** With `stdin`: ends the input; ffmpeg finishes its output and exits by itself. */
  endInput(): void;
  /** With `speakerInput`: feeds fd 4 (dropped once the process is gone). False when the pipe is full. */
  writeSpeaker(chunk: Buffer): boolean;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** An agent that exits (or crashes) must not leave encoders running on the ship's computer. */
function track(child: ChildProcess): void {
  live.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
}

/** Children of startEncoder still running in this process (for tests and diagnostics). */
export function runningEncoderCount(): number {
  return live.size;
}

export function startEncoder(args: readonly string[], opts: EncoderOptions): Encoder {
  const tailMax = opts.stderrTailBytes ?? 2048;
  const graceMs = opts.stopGraceMs ?? 2000;
  let state: EncoderState = 'starting';
  let tail: Buffer = Buffer.alloc(0);
  let bytes = 0;
  let stopRequested = false;
  let failure: string | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  let resolveExited!: (info: EncoderExit) => void;
  const exited = new Promise<EncoderExit>((resolve) => (resolveExited = resolve));

  const extra = opts.onSound || opts.speakerInput ? [opts.onSound ? 'pipe' : 'ignore', opts.speakerInput ? 'pipe' : 'ignore'] : [];
  // SVT-AV1 writes its banner to stderr whatever ffmpeg's log level: errors only, so the tail says why.
  const env = { ...process.env, SVT_LOG: process.env.SVT_LOG ?? '1' };
  const child = spawn(opts.command ?? 'ffmpeg', args, { env, stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(extra as ('pipe' | 'ignore')[])] });
  const soundOut = opts.onSound ? (child.stdio[3] as NodeJS.ReadableStream | null) : null;
  const speakerIn = opts.speakerInput ? (child.stdio[4] as NodeJS.WritableStream & { destroyed: boolean; writableEnded: boolean } | null) : null;
  // ffmpeg gone before its input ended (EPIPE): its exit tells what happened.
  child.stdin?.on('error', () => undefined);
  speakerIn?.on('error', () => undefined);
  soundOut?.on('error', () => undefined);
  soundOut?.on('data', (chunk: Buffer) => {
    if (!done) opts.onSound?.(chunk);
  });
  let done = false;
  const finish = (code: number | null, signal: NodeJS.Signals | null) => {
    if (done) return;
    done = true;
    live.delete(child);
    clearTimeout(startTimer);
    clearTimeout(killTimer);
    const stderrTail = tail.toString('utf8').replace(/^\uFFFD+/, '').trim();
    let info: EncoderExit;
    if (failure !== undefined) {
      info = { state: 'failed', reason: failure, code, signal, stderrTail, bytes };
    } else if (stopRequested) {
      info = { state: 'ended', reason: 'stopped', code, signal, stderrTail, bytes };
    } else if (code === 0 && bytes > 0) {
      info = { state: 'ended', reason: 'end of stream', code, signal, stderrTail, bytes };
    } else {
      const why = code === 0 ? 'ffmpeg exited without output' : signal ? `ffmpeg killed by ${signal}` : `ffmpeg exited with code ${code}`;
      info = { state: 'failed', reason: why, code, signal, stderrTail, bytes };
    }
    state = info.state;
    resolveExited(info);
    opts.onExit?.(info);
  };

  const kill = () => {
    if (done || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    clearTimeout(killTimer);
    killTimer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  };

  const startTimer = setTimeout(() => {
    if (state !== 'starting') return;
    failure = `no output within ${opts.firstByteTimeoutMs} ms`;
    kill();
  }, opts.firstByteTimeoutMs);

  if (child.pid !== undefined) track(child);
  child.stdout?.on('data', (chunk: Buffer) => {
    if (done) return;
    bytes += chunk.length;
    if (state === 'starting') {
      state = 'running';
      clearTimeout(startTimer);
      opts.onRunning?.();
    }
    opts.onData(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = tail.length + chunk.length <= tailMax ? Buffer.concat([tail, chunk]) : Buffer.concat([tail, chunk]).subarray(-tailMax);
  });
  child.on('error', (err) => {
    // Spawning failed (no ffmpeg): no 'close' follows when there never was a process.
    failure ??= `cannot run ${opts.command ?? 'ffmpeg'}: ${err.message}`;
    if (child.pid === undefined) finish(null, null);
  });
  // 'close' comes after the exit and after stdout and stderr are drained.
  child.on('close', (code, signal) => finish(code, signal));

  return {
    get pid() {
      return child.pid;
    },
    get state() {
      return state;
    },
    exited,
    stop() {
      if (!done) {
        if (failure === undefined) stopRequested = true;
        kill();
      }
      return exited;
    },
    write(chunk) {
      const input = child.stdin;
      if (done || !input || input.destroyed || input.writableEnded) return false;
      return input.write(chunk);
    },
    endInput() {
      const input = child.stdin;
      if (input && !input.destroyed && !input.writableEnded) input.end();
    },
    writeSpeaker(chunk) {
      if (done || !speakerIn || speakerIn.destroyed || speakerIn.writableEnded) return false;
      return speakerIn.write(chunk);
    },
  };
}
