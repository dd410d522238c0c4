import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** The rate and layout of the PCM handed to the ship's speaker: signed 16-bit LE, mono. */
export const SPEAKER_RATE = 16_000;

/**
 * Decodes a talk's voice as it arrives — an Ogg Opus stream (OggOpusWriter's pages) or the
 * browser's WebM — to PCM at SPEAKER_RATE with a streaming ffmpeg: pages in on stdin, samples out
 * on stdout as soon as each page is decoded (no probing, no output buffering).
 */
export class PcmDecoder {
  private readonly proc: ChildProcessByStdio<Writable, Readable, Readable>;
  private carry: Buffer | undefined;
  private readonly exited: Promise<void>;
  private stderr = '';

  constructor(container: 'ogg' | 'webm', onPcm: (pcm: Int16Array) => void, onError: (message: string) => void) {
    this.proc = spawn(
      'ffmpeg',
      [
        '-hide_banner', '-loglevel', 'error', '-nostdin',
        '-probesize', '32', '-analyzeduration', '0', '-fflags', 'nobuffer',
        '-f', container === 'ogg' ? 'ogg' : 'matroska', '-i', 'pipe:0',
        '-f', 's16le', '-acodec', 'pcm_s16le', '-ar', String(SPEAKER_RATE), '-ac', '1', '-flush_packets', '1', 'pipe:1',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.proc.stdin.on('error', () => undefined); // ffmpeg gone: 'exit' says why
    this.proc.stderr.on('data', (d: Buffer) => {
      if (this.stderr.length < 2000) this.stderr += d.toString();
    });
    this.proc.stdout.on('data', (chunk: Buffer) => {
      let buf = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
      const whole = buf.length - (buf.length % 2);
      this.carry = whole < buf.length ? Buffer.from(buf.subarray(whole)) : undefined;
      buf = buf.subarray(0, whole);
      if (buf.length === 0) return;
      // A copy on a fresh, aligned buffer: the listener may keep it.
      const pcm = new Int16Array(buf.length / 2);
      for (let i = 0; i < pcm.length; i++) pcm[i] = buf.readInt16LE(i * 2);
      onPcm(pcm);
    });
    this.exited = new Promise((resolve) => {
      this.proc.on('error', (err) => {
        onError(`ffmpeg could not start: ${err.message}`);
        resolve();
      });
      this.proc.on('exit', (code, signal) => {
        if (code !== 0 && signal === null) onError(`ffmpeg ended with ${code}: ${this.stderr.trim().slice(0, 300)}`);
        resolve();
      });
    });
  }

  write(bytes: Uint8Array): void {
    if (!this.proc.stdin.destroyed && bytes.length > 0) this.proc.stdin.write(bytes);
  }

  /** No more input: resolves when every sample has come out. */
  async end(): Promise<void> {
    if (!this.proc.stdin.destroyed) this.proc.stdin.end();
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}
