import { describe, expect, it } from 'vitest';
import { type HoldLink, type HoldTimers, PtzHold } from './hold.ts';

/** Timers the test fires by hand: no waiting. */
class ManualTimers implements HoldTimers {
  private next = 1;
  readonly running = new Map<number, () => void>();
  setInterval(fn: () => void): unknown {
    const id = this.next++;
    this.running.set(id, fn);
    return id;
  }
  clearInterval(handle: unknown): void {
    this.running.delete(handle as number);
  }
  tick(): void {
    for (const fn of [...this.running.values()]) fn();
  }
}

function setup(fail = false) {
  const sent: string[] = [];
  const errors: unknown[] = [];
  const link: HoldLink = {
    move: (s, timeoutMs) => {
      sent.push(`move ${s.pan},${s.tilt},${s.zoom} ${timeoutMs}`);
      return fail ? Promise.reject(new Error('the ship is offline')) : Promise.resolve();
    },
    stop: () => {
      sent.push('stop');
      return Promise.resolve();
    },
    failed: (err) => errors.push(err),
  };
  const timers = new ManualTimers();
  return { hold: new PtzHold(link, 1_500, timers), sent, errors, timers };
}

describe('press and hold of a PTZ control', () => {
  it('moves at once, repeats the move while held (before its time-out runs out), stops on release', () => {
    const { hold, sent, timers } = setup();
    hold.press({ pan: 1, tilt: 0, zoom: 0 });
    expect(sent).toEqual(['move 1,0,0 1500']);
    timers.tick();
    timers.tick();
    expect(sent).toEqual(['move 1,0,0 1500', 'move 1,0,0 1500', 'move 1,0,0 1500']);
    hold.release();
    expect(sent.at(-1)).toBe('stop');
    expect(timers.running.size).toBe(0);
    // A second release (pointer leave after up, blur) sends nothing more.
    hold.release();
    expect(sent.filter((s) => s === 'stop')).toHaveLength(1);
  });

  it('switching controls while held sends the new move without a stop in between, with one repeat timer', () => {
    const { hold, sent, timers } = setup();
    hold.press({ pan: 1, tilt: 0, zoom: 0 });
    hold.press({ pan: 0, tilt: 0, zoom: -1 });
    expect(sent).toEqual(['move 1,0,0 1500', 'move 0,0,-1 1500']);
    expect(timers.running.size).toBe(1);
    timers.tick();
    expect(sent.at(-1)).toBe('move 0,0,-1 1500');
  });

  it('a failed move ends the hold and says why once', async () => {
    const { hold, sent, errors, timers } = setup(true);
    hold.press({ pan: -1, tilt: 1, zoom: 0 });
    await expect.poll(() => errors.length).toBe(1);
    expect(hold.holding).toBe(false);
    expect(timers.running.size).toBe(0);
    hold.release();
    expect(sent).toEqual(['move -1,1,0 1500']);
  });
});
