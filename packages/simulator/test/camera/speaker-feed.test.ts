import { afterEach, describe, expect, it, vi } from 'vitest';
import { SPEAKER_SAMPLE_RATE, SpeakerFeed, SpeakerFeeds } from '../../src/camera/speaker-feed.ts';

afterEach(() => vi.useRealTimers());

/** A pump's output as samples. */
function collect(): { chunks: Buffer[]; samples(): Int16Array } {
  const chunks: Buffer[] = [];
  return {
    chunks,
    samples: () => {
      const all = Buffer.concat(chunks);
      return new Int16Array(all.buffer.slice(all.byteOffset, all.byteOffset + all.length));
    },
  };
}

describe('SpeakerFeed', () => {
  it('writes in real time from the start: a 200 ms lead of silence, then what the clock says is due', () => {
    vi.useFakeTimers();
    let now = 1_000;
    const out = collect();
    const pump = new SpeakerFeed('S1-C01-1').pump((c) => (out.chunks.push(c), true), () => now);
    expect(out.samples().length).toBe(0.2 * SPEAKER_SAMPLE_RATE);
    now += 1_000;
    vi.advanceTimersByTime(20);
    expect(pump.samplesWritten).toBe(1.2 * SPEAKER_SAMPLE_RATE);
    expect(out.samples().every((s) => s === 0)).toBe(true);
    pump.stop();
    now += 1_000;
    vi.advanceTimersByTime(100);
    expect(pump.samplesWritten).toBe(1.2 * SPEAKER_SAMPLE_RATE);
  });

  it('plays what is pushed before silence, in order, to every stream of the camera', () => {
    vi.useFakeTimers();
    let now = 0;
    const feed = new SpeakerFeeds().get('S1-C01-1');
    const a = collect();
    const b = collect();
    const pa = feed.pump((c) => (a.chunks.push(c), true), () => now);
    const pb = feed.pump((c) => (b.chunks.push(c), true), () => now);
    expect(feed.listenerCount).toBe(2);
    feed.push(Int16Array.from([1, 2, 3]));
    feed.push(Int16Array.from([4, -5]));
    now = 10; // 160 samples due
    vi.advanceTimersByTime(20);
    for (const out of [a, b]) {
      const s = out.samples().subarray(0.2 * SPEAKER_SAMPLE_RATE);
      expect([...s.subarray(0, 6)]).toEqual([1, 2, 3, 4, -5, 0]);
      expect(s.length).toBe(160);
    }
    pa.stop();
    pb.stop();
    expect(feed.listenerCount).toBe(0);
  });

  it('keeps at most 10 s of pushed sound a stream has not played (the oldest goes)', () => {
    vi.useFakeTimers();
    let now = 0;
    const feed = new SpeakerFeed('S1-C01-1');
    const out = collect();
    const pump = feed.pump((c) => (out.chunks.push(c), true), () => now);
    for (let i = 0; i < 12; i++) feed.push(new Int16Array(SPEAKER_SAMPLE_RATE).fill(i + 1));
    now = 12_000;
    vi.advanceTimersByTime(20);
    const played = out.samples().subarray(0.2 * SPEAKER_SAMPLE_RATE);
    // Seconds 1 and 2 were dropped: 3 … 12 play, then silence.
    expect(played[0]).toBe(3);
    expect(played.filter((x) => x !== 0).length).toBe(10 * SPEAKER_SAMPLE_RATE);
    expect(played[10 * SPEAKER_SAMPLE_RATE - 1]).toBe(12);
    expect(played[10 * SPEAKER_SAMPLE_RATE]).toBe(0);
    pump.stop();
  });
});
