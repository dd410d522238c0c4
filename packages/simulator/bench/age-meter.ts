/**
 * A picture's age where a benchmark taps the chain: its arrival there minus the capture time the
 * bench camera drew into it (bench-camera.ts). Used by camera-chain.bench.ts (encoder, RTSP
 * client, camera session) and live-rig.ts (`LIVE_RIG_AGES=1`: camera session, packager, shore).
 */
import { spawn } from 'node:child_process';
import { decodeCaptureCode } from '@ship-cctv/protocol';
import { BENCH_CAMERA_ENCODE } from './bench-camera.ts';

const { width: W, height: H } = BENCH_CAMERA_ENCODE;
const START_CODE = Buffer.from([0, 0, 0, 1]);

/**
 * An ffmpeg decoder fed whole pictures (Annex B) in order; each decoded picture's capture code is
 * paired with the arrival time noted when the picture was fed.
 */
export class AgeMeter {
  readonly ages: number[] = [];
  /** When each of `ages` arrived (epoch ms). */
  readonly at: number[] = [];
  unreadable = 0;
  private readonly arrivals: number[] = [];
  private pixels = Buffer.alloc(0);
  private readonly child = spawn(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-loglevel', 'error', '-flags', 'low_delay', '-threads', '1', '-f', 'h264', '-i', 'pipe:0', '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );

  constructor() {
    this.child.stdin.on('error', () => undefined);
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.pixels = Buffer.concat([this.pixels, chunk]);
      while (this.pixels.length >= W * H) {
        const frame = this.pixels.subarray(0, W * H);
        this.pixels = this.pixels.subarray(W * H);
        const arrived = this.arrivals.shift();
        const captured = decodeCaptureCode(frame, W, H, { channels: 1 });
        if (captured === undefined || arrived === undefined) this.unreadable++;
        else {
          this.ages.push(arrived - captured);
          this.at.push(arrived);
        }
      }
    });
  }

  /**
   * One whole picture's NAL units (parameter sets before a keyframe's slices), arrived at `at`;
   * `more`: the rest of the picture fed last (it arrived later, at `at`).
   */
  picture(nals: readonly Buffer[], at: number, more = false): void {
    if (more && this.arrivals.length > 0) this.arrivals[this.arrivals.length - 1] = at;
    else this.arrivals.push(at);
    this.child.stdin.write(Buffer.concat(nals.flatMap((n) => [START_CODE, n])));
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }
}

/** The q-quantile of xs (NaN for none). */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * q))] ?? NaN;
}
