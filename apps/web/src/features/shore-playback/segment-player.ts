/**
 * Plays one shore recording in a <video> through Media Source Extensions, framework-free. The
 * recording is a run of self-contained fMP4 segment files (init + fragments, from a keyframe); the
 * player fetches the one covering the wanted time, appends it in "sequence" mode at its place on a
 * media timeline that starts at the recording's start (media second s = recorded time start + s),
 * and fetches the next one before the buffer runs dry — sooner the faster it plays (up to 16×).
 * Segments far behind the play head are dropped again, so memory stays small on long recordings.
 * The MSE work (MediaSource, SourceBuffer, append queue) is the player package's MediaSurface, the
 * same core the live and ship-end playback player uses.
 */
import { MediaSurface } from '@ship-cctv/player';

export interface PlayerSegment {
  id: string;
  start: number;
  end: number;
  url: string;
  mime: string;
}

export type SegmentPlayerState = 'idle' | 'loading' | 'playing' | 'paused' | 'ended' | 'failed';

export interface SegmentPlayerSnapshot {
  state: SegmentPlayerState;
  /** Recorded time being shown (epoch ms), once something is loaded. */
  time: number | undefined;
  speed: number;
  /** Milliseconds from the last seek to its first frame on screen. */
  lastSeekMs: number | undefined;
  error: string | undefined;
}

type FetchBytes = (url: string) => Promise<ArrayBuffer>;

const defaultFetch: FetchBytes = async (url) => {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`segment ${url}: HTTP ${res.status}`);
  return res.arrayBuffer();
};

/** Seconds of video kept behind the play head. */
const KEEP_BEHIND_S = 20;

export class SegmentPlayer {
  private readonly surface: MediaSurface;
  /** The SourceBuffer of the loaded recording, once its MediaSource opened. */
  private buffer: SourceBuffer | undefined;
  private segments: PlayerSegment[] = [];
  private origin = 0;
  private readonly appended = new Set<number>();
  private loadingIndex: number | undefined;
  /** A removal of segments behind the play head is queued. */
  private evicting = false;
  private generation = 0;
  private snapshot: SegmentPlayerSnapshot = { state: 'idle', time: undefined, speed: 1, lastSeekMs: undefined, error: undefined };
  private readonly listeners = new Set<() => void>();
  private readonly detach: () => void;

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly fetchBytes: FetchBytes = defaultFetch,
  ) {
    this.surface = new MediaSurface(
      video,
      {
        // Full: drop what is more than a few seconds behind the play head, or wait for the eviction.
        onQuotaExceeded: () => (video.currentTime > 5 ? [0, video.currentTime - 5] : undefined),
        onError: (err) => this.fail(err instanceof Error && err.message !== 'SourceBuffer error' ? err.message : 'the browser refused a segment'),
      },
      // One segment after another on the recording's timeline (each placed by timestampOffset).
      { mode: 'sequence' },
    );
    const onTime = () => this.onTimeUpdate();
    const onPlay = () => this.update({ state: 'playing' });
    const onPause = () => {
      if (this.snapshot.state === 'playing') this.update({ state: video.ended ? 'ended' : 'paused' });
    };
    const onEnded = () => this.update({ state: 'ended' });
    const onError = () => this.fail(video.error?.message || 'media error');
    video.addEventListener('timeupdate', onTime);
    video.addEventListener('playing', onPlay);
    video.addEventListener('pause', onPause);
    video.addEventListener('ended', onEnded);
    video.addEventListener('error', onError);
    this.detach = () => {
      video.removeEventListener('timeupdate', onTime);
      video.removeEventListener('playing', onPlay);
      video.removeEventListener('pause', onPause);
      video.removeEventListener('ended', onEnded);
      video.removeEventListener('error', onError);
    };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SegmentPlayerSnapshot => this.snapshot;

  /** Loads a recording (its segments in order, `origin` = its start) and plays from `at`. */
  async open(segments: readonly PlayerSegment[], origin: number, at: number): Promise<void> {
    this.reset();
    const generation = this.generation;
    const first = segments[0];
    if (!first) return this.fail('the recording has no segments');
    if (!this.surface.supports(first.mime)) return this.fail(`unsupported video: ${first.mime}`);
    this.segments = [...segments];
    this.origin = origin;
    this.update({ state: 'loading', error: undefined, time: at });
    this.surface.use(first.mime);
    const last = this.segments.at(-1) ?? first;
    // Runs once the MediaSource is open and its SourceBuffer there.
    this.buffer = await this.whenIdle((sb) => {
      const ms = this.surface.source as MediaSource | undefined;
      if (ms) ms.duration = (last.end - origin) / 1000;
      return sb;
    });
    if (generation !== this.generation) return;
    await this.seek(at);
  }

  /** Shows recorded time `time` (epoch ms) and plays on from there. */
  async seek(time: number): Promise<void> {
    const generation = this.generation;
    const index = this.indexAt(time);
    if (index < 0 || !this.buffer) return;
    const started = performance.now();
    this.update({ time: this.segmentsClamp(time) });
    if (!this.appended.has(index)) {
      // Not next to what is buffered: start the buffer over at the wanted segment.
      if (!this.appended.has(index - 1)) await this.clear();
      await this.append(index);
    }
    if (generation !== this.generation) return;
    this.video.currentTime = (this.segmentsClamp(time) - this.origin) / 1000;
    this.video.playbackRate = this.snapshot.speed;
    await this.video.play().catch(() => undefined);
    this.whenFrameShown(() => {
      if (generation === this.generation) this.update({ lastSeekMs: Math.round(performance.now() - started) });
    });
  }

  setSpeed(speed: number): void {
    this.video.playbackRate = speed;
    this.update({ speed });
  }

  play(): void {
    void this.video.play().catch(() => undefined);
  }

  pause(): void {
    this.video.pause();
  }

  /** Unloads the recording (the element can be reused). */
  reset(): void {
    this.generation++;
    this.appended.clear();
    this.loadingIndex = undefined;
    this.buffer = undefined;
    this.evicting = false;
    this.surface.teardown();
    this.update({ state: 'idle', time: undefined, error: undefined, lastSeekMs: undefined });
  }

  destroy(): void {
    this.reset();
    this.detach();
    this.listeners.clear();
  }

  // -------------------------------------------------------------------------------------------

  private update(patch: Partial<SegmentPlayerSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of [...this.listeners]) l();
  }

  private fail(message: string): void {
    this.update({ state: 'failed', error: message });
  }

  private indexAt(time: number): number {
    const i = this.segments.findIndex((s) => time < s.end);
    return i < 0 ? this.segments.length - 1 : i;
  }

  private segmentsClamp(time: number): number {
    const first = this.segments[0];
    const last = this.segments.at(-1);
    if (!first || !last) return time;
    return Math.min(Math.max(time, first.start), last.end - 1);
  }

  /**
   * Resolves with `fn`'s value once the SourceBuffer is idle after everything queued before (the
   * surface's queue runs it in order with the appends and removes). Never resolves after a reset.
   */
  private whenIdle<T>(fn: (sb: SourceBuffer) => T): Promise<T> {
    return new Promise((resolve) => this.surface.run((sb) => resolve(fn(sb))));
  }

  private async append(index: number): Promise<void> {
    const segment = this.segments[index];
    const generation = this.generation;
    if (!segment || this.appended.has(index) || this.loadingIndex === index) return;
    this.loadingIndex = index;
    try {
      const bytes = await this.fetchBytes(segment.url);
      if (generation !== this.generation) return;
      this.surface.run((sb) => (sb.timestampOffset = (segment.start - this.origin) / 1000));
      this.surface.append(new Uint8Array(bytes));
      await this.whenIdle(() => {
        if (generation !== this.generation) return;
        this.appended.add(index);
        const ms = this.surface.source as MediaSource | undefined;
        if (ms && ms.readyState === 'open' && index === this.segments.length - 1) ms.endOfStream();
      });
    } catch (err) {
      if (generation === this.generation) this.fail(err instanceof Error ? err.message : String(err));
    } finally {
      if (this.loadingIndex === index) this.loadingIndex = undefined;
    }
  }

  private clear(): Promise<void> {
    this.surface.remove(0, Infinity);
    return this.whenIdle(() => this.appended.clear());
  }

  private onTimeUpdate(): void {
    if (!this.buffer || this.segments.length === 0) return;
    const now = this.origin + this.video.currentTime * 1000;
    this.update({ time: now });
    const index = this.indexAt(now);
    const next = index + 1;
    // Fetch the next segment while this much is left (seconds of media; more at a higher speed).
    const lead = Math.max(10, 4 * this.snapshot.speed);
    const current = this.segments[index];
    if (current && next < this.segments.length && !this.appended.has(next) && (current.end - now) / 1000 < lead) void this.append(next);
    this.evictBehind(this.video.currentTime - KEEP_BEHIND_S);
  }

  private evictBehind(before: number): void {
    const old = [...this.appended].filter((i) => {
      const s = this.segments[i];
      return s !== undefined && (s.end - this.origin) / 1000 < before;
    });
    if (old.length === 0) return;
    const until = Math.max(...old.map((i) => ((this.segments[i]?.end ?? this.origin) - this.origin) / 1000));
    if (this.evicting) return;
    this.evicting = true;
    const generation = this.generation;
    this.surface.remove(0, until);
    void this.whenIdle(() => {
      this.evicting = false;
      if (generation === this.generation) for (const i of old) this.appended.delete(i);
    });
  }

  private whenFrameShown(callback: () => void): void {
    const v = this.video as HTMLVideoElement & { requestVideoFrameCallback?: (cb: () => void) => number };
    if (typeof v.requestVideoFrameCallback === 'function') v.requestVideoFrameCallback(() => callback());
    else this.video.addEventListener('seeked', () => callback(), { once: true });
  }
}
