/**
 * Where a real camera's picture spends its time on the ship, inside live-rig.ts
 * (`LIVE_RIG_AGES=1` with `--camera=rtsp`): each picture's age (arrival − the capture time the
 * bench camera drew into it) at the agent's camera session, at the packager (the fragment's prft:
 * the wall clock when the ship packaged it) and at shore (when its bytes came off the link).
 * Printed to stderr when the rig stops: the median and p95 of each, and of every 5 s, so a standing
 * delay shows where it starts.
 */
import { readProducerTime, readTrackSamples, readVideoDecoderSetup, type VideoDecoderSetup } from '@ship-cctv/media';
import { RelaySplitter } from '../../../apps/server/src/core/media/fmp4.ts';
import { splitNals } from '../../../apps/agent/src/media/access-unit.ts';
import type { SessionEvent } from '../../../apps/agent/src/media/camera-session.ts';
import { avcParameterSets } from '../../../apps/agent/src/media/avc.ts';
import { AgeMeter, quantile } from '../../../packages/simulator/bench/age-meter.ts';

const WINDOW_MS = 5_000;

export class RigAges {
  private readonly session = new AgeMeter();
  private readonly packaged = new AgeMeter();
  private readonly shore = new AgeMeter();
  private sessionKeyframe = false;
  private splitter = new RelaySplitter();
  private streamId: number | undefined;
  private setup: VideoDecoderSetup | undefined;
  private params: Buffer[] = [];
  private shoreKeyframe = false;

  constructor(private readonly shipId: string) {}

  /** A picture of the ship's camera session. */
  onSession(e: SessionEvent): void {
    if (e.kind !== 'picture') return;
    this.sessionKeyframe ||= e.picture.keyframe;
    if (this.sessionKeyframe) this.session.picture(splitNals(e.picture.data), e.picture.arrivedAt);
  }

  /** Live bytes of a stream at shore, as they came off the link. */
  onShore(streamId: number, data: Buffer, now: number): void {
    if (streamId !== this.streamId) {
      // A new stream: its own init segment, and the decoders wait for its keyframe.
      this.streamId = streamId;
      this.splitter = new RelaySplitter();
      this.setup = undefined;
      this.shoreKeyframe = false;
    }
    for (const unit of this.splitter.push(data)) {
      if (unit.kind === 'init') {
        this.setup = readVideoDecoderSetup(unit.data);
        this.params = this.setup ? avcParameterSets(this.setup.description) : [];
        continue;
      }
      if (unit.kind !== 'fragment' || !this.setup) continue;
      const produced = readProducerTime(unit.data);
      for (const sample of readTrackSamples(unit.data, this.setup.trackId, this.setup.defaults)) {
        this.shoreKeyframe ||= sample.keyframe;
        if (!this.shoreKeyframe) continue;
        const nals = [...(sample.keyframe ? this.params : []), ...splitNals(Buffer.from(sample.data))];
        if (produced) this.packaged.picture(nals, produced.wallMs);
        this.shore.picture(nals, now);
      }
    }
  }

  report(): string {
    const fmt = (xs: readonly number[]) => (xs.length ? `${quantile(xs, 0.5).toFixed(0)} / ${quantile(xs, 0.95).toFixed(0)} ms (${xs.length})` : '—');
    const lines = [`[rig ages] ${this.shipId}: picture age, median / p95 — camera session ${fmt(this.session.ages)}; packaged (prft) ${fmt(this.packaged.ages)}; at shore ${fmt(this.shore.ages)}`];
    const start = Math.min(...[this.session, this.packaged, this.shore].map((m) => m.at[0] ?? Infinity));
    if (Number.isFinite(start)) {
      const windows = new Map<number, { session: number[]; packaged: number[]; shore: number[] }>();
      for (const [name, meter] of [['session', this.session], ['packaged', this.packaged], ['shore', this.shore]] as const) {
        meter.ages.forEach((age, i) => {
          const w = Math.floor(((meter.at[i] ?? start) - start) / WINDOW_MS);
          const row = windows.get(w) ?? { session: [], packaged: [], shore: [] };
          row[name].push(age);
          windows.set(w, row);
        });
      }
      for (const [w, row] of [...windows].sort((a, b) => a[0] - b[0])) {
        const med = (xs: number[]) => (xs.length ? quantile(xs, 0.5).toFixed(0).padStart(5) : '    —');
        lines.push(`[rig ages] ${this.shipId} ${String((w * WINDOW_MS) / 1000).padStart(4)} s: session ${med(row.session)}  packaged ${med(row.packaged)}  shore ${med(row.shore)} ms (medians)`);
      }
    }
    return lines.join('\n');
  }

  stop(): void {
    this.session.stop();
    this.packaged.stop();
    this.shore.stop();
  }
}
