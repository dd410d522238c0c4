import { describe, expect, it } from 'vitest';
import { type TalkEvent, type TalkState, isActive, remainingSeconds, talkReducer } from './talk-machine.ts';

const run = (events: TalkEvent[], from: TalkState = { kind: 'idle' }) => events.reduce(talkReducer, from);

describe('talk state machine', () => {
  it('press-to-talk: a held press talks until release', () => {
    const talking = run([{ type: 'press', mode: 'hold' }, { type: 'started', at: 1000, maxSeconds: 120 }]);
    expect(talking).toEqual({ kind: 'talking', mode: 'hold', since: 1000, maxSeconds: 120 });
    expect(isActive(talking)).toBe(true);
    expect(run([{ type: 'release' }], talking)).toEqual({ kind: 'idle' });
  });

  it('a release before shore answers ends the talk too', () => {
    expect(run([{ type: 'press', mode: 'hold' }, { type: 'release' }, { type: 'started', at: 5, maxSeconds: 120 }])).toEqual({ kind: 'idle' });
  });

  it('toggle: a short press latches the talk on, the next press ends it, releases do nothing', () => {
    const latched = run([{ type: 'press', mode: 'hold' }, { type: 'latch' }, { type: 'started', at: 0, maxSeconds: 60 }, { type: 'release' }]);
    expect(latched).toMatchObject({ kind: 'talking', mode: 'toggle' });
    const stopped = run([{ type: 'press', mode: 'hold' }], latched);
    expect(stopped).toEqual({ kind: 'idle' });
    // The release of the stopping click, short as it is, does not start anything.
    expect(run([{ type: 'latch' }, { type: 'release' }], stopped)).toEqual({ kind: 'idle' });
  });

  it('a refusal or an end from shore leaves the talk with its problem until dismissed', () => {
    const occupied = run([{ type: 'press', mode: 'hold' }, { type: 'problem', problem: { kind: 'occupied', holder: 'Duty Officer' } }]);
    expect(occupied).toEqual({ kind: 'failed', problem: { kind: 'occupied', holder: 'Duty Officer' } });
    expect(isActive(occupied)).toBe(false);
    expect(run([{ type: 'release' }, { type: 'ended' }], occupied)).toBe(occupied);
    expect(run([{ type: 'dismiss' }], occupied)).toEqual({ kind: 'idle' });
    // A new press after a failure tries again.
    expect(run([{ type: 'press', mode: 'hold' }], occupied)).toEqual({ kind: 'starting', mode: 'hold' });
  });

  it('a talk shore ended returns to idle', () => {
    const talking = run([{ type: 'press', mode: 'hold' }, { type: 'latch' }, { type: 'started', at: 0, maxSeconds: 60 }]);
    expect(run([{ type: 'ended' }], talking)).toEqual({ kind: 'idle' });
  });

  it('shows the seconds left only near the maximum duration', () => {
    const talking: TalkState = { kind: 'talking', mode: 'toggle', since: 0, maxSeconds: 120 };
    expect(remainingSeconds(talking, 60_000)).toBeUndefined();
    expect(remainingSeconds(talking, 105_500)).toBe(15);
    expect(remainingSeconds(talking, 119_100)).toBe(1);
    expect(remainingSeconds(talking, 125_000)).toBe(0);
    expect(remainingSeconds({ kind: 'idle' }, 119_000)).toBeUndefined();
  });
});
