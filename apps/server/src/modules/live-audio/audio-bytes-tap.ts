import type { InitSegment, MediaFragment } from '../../core/media/fmp4.ts';
import type { LiveMediaTap, LiveSource } from '../live/index.ts';

/**
 * Counts the sound bytes of every live stream as they arrive from the ships (the samples of each
 * fragment's sound tracks; the boxes around them go to the link-bytes counter as live media like
 * the rest). A stream's sound tracks are read from its init segment; a stream without sound adds
 * nothing.
 */
export class AudioBytesTap implements LiveMediaTap {
  private readonly soundTracks = new WeakMap<LiveSource, ReadonlySet<number>>();

  constructor(private readonly count: (shipId: string, bytes: number) => void) {}

  init(source: LiveSource, init: InitSegment): void {
    const tracks = init.tracks.filter((t) => t.kind === 'audio').map((t) => t.trackId);
    if (tracks.length > 0) this.soundTracks.set(source, new Set(tracks));
    else this.soundTracks.delete(source);
  }

  fragment(source: LiveSource, fragment: MediaFragment): void {
    const tracks = this.soundTracks.get(source);
    if (!tracks) return;
    let bytes = 0;
    for (const run of fragment.tracks) if (tracks.has(run.trackId)) bytes += run.bytes;
    if (bytes > 0) this.count(source.shipId, bytes);
  }

  end(source: LiveSource): void {
    this.soundTracks.delete(source);
  }
}
