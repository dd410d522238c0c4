import { type ChildProcess, spawn } from 'node:child_process';

export interface EncoderExit {
  /** `ended`: exited after producing output; `failed`: exited, or timed out, before the first byte. */
  outcome: 'ended' | 'failed' | 'stopped';
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last part of what ffmpeg wrote to stderr (capped), for the error message. */
  stderrTail: string;
  message: string;
}

export interface EncoderOptions {
  /** Time allowed for the first output byte; a camera that does not answer fails after it. */
  firstByteTimeoutMs: number;
  onData(chunk: Buffer): void;
  onFirstByte?(): void;
  onExit(exit: EncoderExit): void;
  /** Grace between SIGTERM and SIGKILL on stop. */
  killGraceMs?: number;
  command?: string;
}

const STDERR_TAIL_BYTES = 2048;

/**
 * A supervised ffmpeg: starting until its first output byte (or a time-out), running, then ended,
 * failed or stopped — exactly one onExit, always with the tail of stderr, and never a process left
 * behind after stop().
 */
export class Encoder {
  private readonly child: ChildProcess;
  private stderr = '';
  private gotData = false;
  private stopping = false;
  private timedOut = false;
  private exited = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    args: readonly string[],
    private readonly opts: EncoderOptions,
  ) {
    this.child = spawn(opts.command ?? 'ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.timer = setTimeout(() => {
      if (this.gotData) return;
      this.timedOut = true;
      this.kill();
    }, opts.firstByteTimeoutMs);
    this.child.stdout?.on('data', (chunk: Buffer) => {
      if (!this.gotData) {
        this.gotData = true;
        clearTimeout(this.timer);
        opts.onFirstByte?.();
      }
      if (!this.stopping) opts.onData(chunk);
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.child.on('error', (err) => this.finish(null, null, err.message));
    this.child.on('close', (code, signal) => this.finish(code, signal));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return !this.exited;
  }

  /** Ends the process: SIGTERM, then SIGKILL after the grace period. Resolves once it is gone. */
  stop(): Promise<void> {
    this.stopping = true;
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('close', () => resolve());
      this.kill();
    });
  }

  private kill(): void {
    this.child.kill('SIGTERM');
    const grace = setTimeout(() => {
      if (!this.exited) this.child.kill('SIGKILL');
    }, this.opts.killGraceMs ?? 2_000);
    grace.unref();
  }

  private finish(code: number | null, signal: NodeJS.Signals | null, spawnError?: string): void {
    if (this.exited) return;
    this.exited = true;
    clearTimeout(this.timer);
    const stderrTail = this.stderr.trim();
    const outcome: EncoderExit['outcome'] = this.stopping ? 'stopped' : this.gotData && !this.timedOut ? 'ended' : 'failed';
    const why = spawnError
      ? `could not run ffmpeg: ${spawnError}`
      : this.timedOut
        ? `no video within ${this.opts.firstByteTimeoutMs} ms`
        : `ffmpeg exited (${signal ?? code})`;
    const message = stderrTail ? `${why}: ${stderrTail.split('\n').slice(-3).join(' | ')}` : why;
    this.opts.onExit({ outcome, code, signal, stderrTail, message });
  }
}
