import { describe, expect, it } from 'vitest';
import { interpretServerMessage } from '../src/server-events.ts';

const noFrames = { framesShowing: false };

describe('interpretServerMessage', () => {
  it('maps starting to the starting state with the server wait as startup grace', () => {
    expect(interpretServerMessage({ type: 'status', state: 'starting', waitSeconds: 8 }, noFrames)).toEqual({
      state: 'starting',
      final: false,
      hold: true,
      startupGraceMs: 8000,
    });
  });

  it('says playing only once frames show', () => {
    expect(interpretServerMessage({ type: 'status', state: 'playing' }, noFrames).state).toBeUndefined();
    expect(interpretServerMessage({ type: 'status', state: 'playing' }, { framesShowing: true }).state).toBe('playing');
  });

  it('turns stalled and offline into states with typed errors', () => {
    expect(interpretServerMessage({ type: 'status', state: 'stalled', reason: 'link' }, noFrames)).toMatchObject({
      state: 'stalled',
      error: { kind: 'stalled', message: 'link' },
    });
    expect(interpretServerMessage({ type: 'status', state: 'offline' }, noFrames)).toMatchObject({
      state: 'offline',
      error: { kind: 'offline' },
    });
  });

  it('treats a limit countdown as a warning and the stop as final', () => {
    expect(interpretServerMessage({ type: 'status', state: 'limit', countdownSeconds: 60 }, noFrames)).toEqual({});
    expect(interpretServerMessage({ type: 'status', state: 'limit', countdownSeconds: 0 }, noFrames)).toMatchObject({ state: 'limit', final: true });
    expect(interpretServerMessage({ type: 'status', state: 'ended' }, noFrames)).toMatchObject({ state: 'ended', final: true });
  });

  it('takes a data budget’s refusal as final: playing again would be refused again', () => {
    for (const code of ['budgetStills', 'budgetBlocked'] as const) {
      expect(interpretServerMessage({ type: 'error', code, message: 'used up' }, noFrames)).toEqual({ state: 'error', final: true, error: { kind: 'server', code, message: 'used up' } });
    }
  });

  it('makes server errors typed, final only when a retry would meet them again', () => {
    expect(interpretServerMessage({ type: 'error', code: 'forbidden', message: 'no' }, noFrames)).toEqual({
      state: 'error',
      final: true,
      error: { kind: 'server', code: 'forbidden', message: 'no' },
    });
    expect(interpretServerMessage({ type: 'error', code: 'startFailed', message: 'x' }, noFrames)).toEqual({
      error: { kind: 'server', code: 'startFailed', message: 'x' },
    });
    expect(interpretServerMessage({ type: 'error', code: 'cameraOffline', message: 'off' }, noFrames)).toMatchObject({
      state: 'offline',
      error: { kind: 'offline', code: 'cameraOffline' },
    });
  });

  it('leaves notices to the notice event', () => {
    expect(interpretServerMessage({ type: 'notice', code: 'lowestDefinition', templateId: 1 }, noFrames)).toEqual({});
  });
});
