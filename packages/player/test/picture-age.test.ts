import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PictureAge, watchComposited } from '../src/picture-age.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance', 'Date'] });
  vi.setSystemTime(1_000_000);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('PictureAge: how old the picture on screen is (both live players)', () => {
  it('matches each picture shown to when it left the encoder, within half a frame, and takes the median', () => {
    const age = new PictureAge();
    const now = Date.now();
    // Pictures every 100 ms of media time, noted in decode order (a B-frame after the P it precedes).
    age.noteProduced(0, now - 300);
    age.noteProduced(200, now - 250);
    age.noteProduced(100, now - 280);
    age.noteShown(1, 50);
    age.noteShown(99, 50);
    age.noteShown(203, 50);
    expect(age.medianMs(performance.now())).toBe(280);
    // Nothing produced near 500: no age for it.
    age.noteShown(500, 50);
    expect(age.medianMs(performance.now())).toBe(280);
  });

  it('leaves out ages that say the clocks disagree, and ages of pictures shown more than two seconds ago', () => {
    const age = new PictureAge();
    age.noteProduced(0, Date.now() + 5_000);
    age.noteProduced(100, Date.now() - 200_000);
    age.noteShown(0, 50);
    age.noteShown(100, 50);
    expect(age.medianMs(performance.now())).toBeUndefined();
    age.noteProduced(200, Date.now() - 150);
    age.noteShown(200, 50);
    expect(age.medianMs(performance.now())).toBe(150);
    vi.advanceTimersByTime(2_001);
    expect(age.medianMs(performance.now())).toBeUndefined();
  });

  it('forgets the producer times of an old timeline but keeps the ages already measured', () => {
    const age = new PictureAge();
    age.noteProduced(0, Date.now() - 120);
    age.noteShown(0, 50);
    age.noteProduced(100, Date.now() - 90);
    age.newTimeline();
    age.noteShown(100, 50);
    expect(age.medianMs(performance.now())).toBe(120);
    age.reset();
    expect(age.medianMs(performance.now())).toBeUndefined();
  });
});

describe('watchComposited', () => {
  it('gives the time of the rendering step the frame showed in, not the time its callback came to run', () => {
    const callbacks: VideoFrameRequestCallback[] = [];
    const video = { requestVideoFrameCallback: (cb: VideoFrameRequestCallback) => callbacks.push(cb) };
    const shown: Array<[number, number]> = [];
    expect(watchComposited(video, () => true, (mediaTime, at) => shown.push([mediaTime, at]))).toBe(true);
    const step = performance.now();
    const stepWall = Date.now();
    // The page's other frame callbacks of the step took 14 ms before this one ran.
    vi.advanceTimersByTime(14);
    callbacks.shift()?.(step, { mediaTime: 2.5 } as VideoFrameCallbackMetadata);
    expect(shown).toEqual([[2.5, stepWall]]);
    // And it asks for the next frame.
    expect(callbacks).toHaveLength(1);
    // A picture shown at that step, 90 ms after it left the ship, is 90 ms old, not 104.
    const age = new PictureAge();
    age.noteProduced(2.5, stepWall - 90);
    age.noteShown(2.5, 0.05, shown[0]![1]);
    expect(age.medianMs(performance.now())).toBe(90);
  });
});
