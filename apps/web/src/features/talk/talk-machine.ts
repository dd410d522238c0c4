import type { TalkProblem } from './talk-problem.ts';

/** Press-to-talk (held) or toggled (latched until the second click). */
export type TalkMode = 'hold' | 'toggle';

export type TalkState =
  | { kind: 'idle' }
  /** Microphone asked, socket opening, shore checking; the voice is already being captured. */
  | { kind: 'starting'; mode: TalkMode }
  | { kind: 'talking'; mode: TalkMode; since: number; maxSeconds: number }
  | { kind: 'failed'; problem: TalkProblem };

export type TalkEvent =
  | { type: 'press'; mode: TalkMode }
  /** A short press: the talk stays on until the next press. */
  | { type: 'latch' }
  | { type: 'release' }
  | { type: 'started'; at: number; maxSeconds: number }
  | { type: 'ended' }
  | { type: 'problem'; problem: TalkProblem }
  | { type: 'dismiss' };

/**
 * The talk button's states. `press` starts a talk from idle (or after a failure) and ends a
 * toggled one; `release` ends a held one; `latch` turns a held talk into a toggled one.
 */
export function talkReducer(state: TalkState, event: TalkEvent): TalkState {
  switch (event.type) {
    case 'press':
      if (state.kind === 'idle' || state.kind === 'failed') return { kind: 'starting', mode: event.mode };
      return state.mode === 'toggle' ? { kind: 'idle' } : state;
    case 'latch':
      return state.kind === 'starting' || state.kind === 'talking' ? { ...state, mode: 'toggle' } : state;
    case 'release':
      return (state.kind === 'starting' || state.kind === 'talking') && state.mode === 'hold' ? { kind: 'idle' } : state;
    case 'started':
      return state.kind === 'starting' ? { kind: 'talking', mode: state.mode, since: event.at, maxSeconds: event.maxSeconds } : state;
    case 'ended':
      return state.kind === 'failed' ? state : { kind: 'idle' };
    case 'problem':
      return { kind: 'failed', problem: event.problem };
    case 'dismiss':
      return state.kind === 'failed' ? { kind: 'idle' } : state;
  }
}

/** Whether the microphone and socket should be running in this state. */
export const isActive = (s: TalkState): boolean => s.kind === 'starting' || s.kind === 'talking';

/** Seconds shown before the maximum duration ends the talk. */
export const REMAINING_SHOWN_SECONDS = 15;

/** The seconds left, when the end is near enough to show them (undefined otherwise). */
export function remainingSeconds(s: TalkState, now: number): number | undefined {
  if (s.kind !== 'talking') return undefined;
  const left = Math.max(0, Math.ceil(s.maxSeconds - (now - s.since) / 1000));
  return left <= REMAINING_SHOWN_SECONDS ? left : undefined;
}

/** A press shorter than this latches the talk on (toggle) instead of ending it on release. */
export const LATCH_MS = 350;
