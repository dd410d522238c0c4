import { describe, expect, it } from 'vitest';
import { type KeyframeGateState, passFragment } from '../../src/uplink/keyframe-gate.ts';

const fresh = (): KeyframeGateState => ({ dropping: false, droppedFragments: 0 });

describe('the keyframe gate of a full uplink', () => {
  it('sends while the queue is within the bound', () => {
    const s = fresh();
    expect(passFragment(s, false, 1_000, 1_000)).toBe('send');
    expect(s).toEqual({ dropping: false, droppedFragments: 0 });
  });

  it('starts dropping whole fragments past the bound, and keeps dropping until a keyframe meets a queue under half', () => {
    const s = fresh();
    expect(passFragment(s, false, 1_001, 1_000)).toBe('startDropping');
    // A keyframe alone is not enough while the queue is still above half the bound…
    expect(passFragment(s, true, 600, 1_000)).toBe('drop');
    // …and a drained queue without a keyframe is not either: the next fragment would not decode.
    expect(passFragment(s, false, 0, 1_000)).toBe('drop');
    expect(s).toEqual({ dropping: true, droppedFragments: 3 });
    expect(passFragment(s, true, 500, 1_000)).toBe('send');
    expect(s.dropping).toBe(false);
    expect(passFragment(s, false, 900, 1_000)).toBe('send');
  });
});
