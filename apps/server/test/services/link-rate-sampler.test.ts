import { describe, expect, it } from 'vitest';
import type { LinkPurpose } from '@ship-cctv/protocol';
import { type LinkDirection, LinkRateSampler } from '../../src/modules/status/link-bytes.ts';

/** Counters the test moves by hand, and a clock it sets. */
function setup() {
  const counters = new Map<string, number>();
  const key = (ship: string, direction: LinkDirection, purpose: LinkPurpose) => `${ship}/${direction}/${purpose}`;
  const add = (ship: string, direction: LinkDirection, purpose: LinkPurpose, bytes: number) =>
    counters.set(key(ship, direction, purpose), (counters.get(key(ship, direction, purpose)) ?? 0) + bytes);
  let now = 1_000_000;
  const sampler = new LinkRateSampler((ship, direction, purpose) => counters.get(key(ship, direction, purpose)) ?? 0, {
    windowMs: 10_000,
    minSpanMs: 1_000,
    now: () => now,
  });
  return { sampler, add, advance: (ms: number) => (now += ms) };
}

describe('LinkRateSampler', () => {
  it('answers totals by direction and purpose', () => {
    const { sampler, add } = setup();
    add('S1', 'up', 'live', 500);
    add('S1', 'up', 'playback', 20);
    add('S1', 'down', 'control', 7);
    expect(sampler.totals('S1')).toEqual({
      up: { control: 0, live: 500, playback: 20, pictures: 0, talk: 0, backfill: 0, events: 0 },
      down: { control: 7, live: 0, playback: 0, pictures: 0, talk: 0, backfill: 0, events: 0 },
    });
  });

  it('has no rate for a connected ship until a reading is at least minSpan old', () => {
    const { sampler, advance } = setup();
    expect(sampler.figures('S1', true).upRate).toBeNull();
    sampler.sample(['S1']);
    advance(500);
    expect(sampler.figures('S1', true).upRate).toBeNull();
    advance(500);
    expect(sampler.figures('S1', true).upRate).toEqual({ control: 0, live: 0, playback: 0, pictures: 0, talk: 0, backfill: 0, events: 0 });
  });

  it('gives bytes per second against the oldest reading within the window', () => {
    const { sampler, add, advance } = setup();
    sampler.sample(['S1']);
    advance(2_000);
    add('S1', 'up', 'live', 4_000);
    sampler.sample(['S1']);
    advance(2_000);
    add('S1', 'up', 'live', 8_000);
    add('S1', 'down', 'control', 400);
    // 12,000 bytes over the 4 s since the first reading.
    const f = sampler.figures('S1', true);
    expect(f.upRate?.live).toBe(3_000);
    expect(f.downRate?.control).toBe(100);
    expect(f.up.live).toBe(12_000);

    // 12 s after the first reading it has left the window: the rate is over the 10 s since the second.
    advance(8_000);
    sampler.sample(['S1']);
    expect(sampler.figures('S1', true).upRate?.live).toBe(8_000 / 10);
  });

  it('keeps reading a ship that left until its window is idle, then forgets it (zero rate)', () => {
    const { sampler, add, advance } = setup();
    sampler.sample(['S1']);
    advance(2_000);
    add('S1', 'up', 'live', 10_000);
    sampler.sample([]); // S1 disconnected
    advance(2_000);
    expect(sampler.figures('S1', false).upRate?.live).toBe(10_000 / 4);
    for (let i = 0; i < 6; i++) {
      advance(2_000);
      sampler.sample([]);
    }
    expect(sampler.figures('S1', false).upRate).toEqual({ control: 0, live: 0, playback: 0, pictures: 0, talk: 0, backfill: 0, events: 0 });
    // A ship never read at all is idle: zero, not unknown.
    expect(sampler.figures('S9', false).upRate).toEqual({ control: 0, live: 0, playback: 0, pictures: 0, talk: 0, backfill: 0, events: 0 });
  });
});
