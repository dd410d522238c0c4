import { AppendQueue } from './append-queue.ts';
import type { MediaSourceConstructor, MediaSourceLike } from './types.ts';

export interface MediaSurfaceHooks {
  /** An append or remove finished (the buffered ranges changed). */
  onBuffered?(sb: SourceBuffer): void;
  /** The buffer is full: a range to remove before retrying, or undefined to retry later. */
  onQuotaExceeded(sb: SourceBuffer): [number, number] | undefined;
  /** Adding the SourceBuffer, an append or a run op failed. */
  onError(error: unknown): void;
}

export interface MediaSurfaceOptions {
  MediaSourceImpl?: MediaSourceConstructor | undefined;
  /** 'segments' (media placed by its own timestamps) or 'sequence' (one after another). Default 'segments'. */
  mode?: AppendMode;
}

/** The MediaSource this browser has: MediaSource, or Safari's ManagedMediaSource on iPhone. */
export function browserMediaSource(): MediaSourceConstructor | undefined {
  const managed = (globalThis as { ManagedMediaSource?: MediaSourceConstructor }).ManagedMediaSource;
  return (globalThis.MediaSource as MediaSourceConstructor | undefined) ?? managed;
}

/**
 * The Media Source Extensions core every player here uses (live and ship-end playback in
 * MsePlayer, shore recordings in the web app's segment player): one MediaSource on the <video>,
 * one SourceBuffer for the stream — video and sound together, as the MIME type names them — fed
 * through an AppendQueue, a codec switched in place when the browser can (changeType) so the
 * picture stays, and everything torn down without the element raising an error.
 */
export class MediaSurface {
  readonly queue: AppendQueue<SourceBuffer>;
  private readonly MediaSourceImpl: MediaSourceConstructor | undefined;
  private readonly mode: AppendMode;
  private media: { source: MediaSourceLike; mime: string; url: string } | undefined;

  constructor(
    private readonly video: HTMLVideoElement,
    hooks: MediaSurfaceHooks,
    opts: MediaSurfaceOptions = {},
  ) {
    const managed = (globalThis as { ManagedMediaSource?: MediaSourceConstructor }).ManagedMediaSource;
    this.MediaSourceImpl = opts.MediaSourceImpl ?? browserMediaSource();
    // Safari's ManagedMediaSource (iPhone) only streams when AirPlay is off for the element.
    if (!opts.MediaSourceImpl && !globalThis.MediaSource && managed) video.disableRemotePlayback = true;
    this.mode = opts.mode ?? 'segments';
    this.queue = new AppendQueue<SourceBuffer>({
      ...(hooks.onBuffered ? { onUpdateEnd: (sb: SourceBuffer) => hooks.onBuffered?.(sb) } : {}),
      onQuotaExceeded: (sb) => hooks.onQuotaExceeded(sb),
      onError: (err) => hooks.onError(err),
    });
    this.onError = hooks.onError;
  }

  private readonly onError: (error: unknown) => void;

  /** Whether this browser can play `mime` at all. */
  supports(mime: string): boolean {
    return this.MediaSourceImpl?.isTypeSupported(mime) ?? false;
  }

  /** The MediaSource being fed, while there is one. */
  get source(): MediaSourceLike | undefined {
    return this.media?.source;
  }

  get mime(): string | undefined {
    return this.media?.mime;
  }

  /** The SourceBuffer, once the MediaSource opened. */
  get buffer(): SourceBuffer | undefined {
    return this.queue.attached;
  }

  /** The buffered ranges while the MediaSource is open (none otherwise). */
  ranges(): Array<[number, number]> {
    const sb = this.queue.attached;
    if (!sb || this.media?.source.readyState !== 'open') return [];
    const out: Array<[number, number]> = [];
    for (let i = 0; i < sb.buffered.length; i++) out.push([sb.buffered.start(i), sb.buffered.end(i)]);
    return out;
  }

  /**
   * Plays `mime` from now on: switched in place, in order with what is queued, when a MediaSource
   * is open and the browser has changeType (`switched`, the picture stays); otherwise a fresh
   * MediaSource (`opened`, a blank until the next keyframe). Needs `supports(mime)`.
   */
  use(mime: string): 'switched' | 'opened' {
    const sb = this.queue.attached;
    const media = this.media;
    if (media && sb && media.source.readyState === 'open' && !this.video.error && typeof sb.changeType === 'function') {
      // The old fragments still queued must go in under the old codec: the switch waits its turn.
      if (mime !== media.mime) {
        this.queue.run((b) => b.changeType(mime));
        media.mime = mime;
      }
      return 'switched';
    }
    this.open(mime);
    return 'opened';
  }

  append(bytes: Uint8Array<ArrayBuffer>): void {
    this.queue.append(bytes);
  }

  /** Runs when the SourceBuffer is idle, in order with the appends (timestampOffset, …). */
  run(fn: (sb: SourceBuffer) => void): void {
    this.queue.run(fn);
  }

  remove(start: number, end: number): void {
    this.queue.remove(start, end);
  }

  /** Empties the element: no MediaSource, no error event (load() without a src). */
  teardown(): void {
    this.queue.detach();
    const media = this.media;
    if (!media) return;
    this.media = undefined;
    URL.revokeObjectURL(media.url);
    this.video.removeAttribute('src');
    this.video.load();
  }

  private open(mime: string): void {
    const MediaSourceImpl = this.MediaSourceImpl;
    if (!MediaSourceImpl) throw new Error('this browser has no Media Source Extensions');
    this.teardown();
    const source = new MediaSourceImpl();
    const url = URL.createObjectURL(source as unknown as MediaSource);
    this.media = { source, mime, url };
    source.addEventListener(
      'sourceopen',
      () => {
        const media = this.media;
        if (media?.source !== source) return;
        URL.revokeObjectURL(url);
        try {
          const sb = source.addSourceBuffer(media.mime);
          sb.mode = this.mode;
          this.queue.attach(sb);
        } catch (err) {
          this.onError(err);
        }
      },
      { once: true },
    );
    this.video.src = url;
  }
}
