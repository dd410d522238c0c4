import { describe, expect, it } from 'vitest';
import { initialPlayerView, type PlayerView } from '../../shared/player-cell/index.ts';
import { playbackOverlay, seekValue, spanBands } from './playback-view.ts';

const view = (patch: Partial<PlayerView>): PlayerView => ({ ...initialPlayerView(), ...patch });

describe('playback overlay', () => {
  it('says there is no playback video in the range and offers another range', () => {
    expect(playbackOverlay(view({ state: 'error', error: { kind: 'server', code: 'noRecording', message: '' } }), 0)).toEqual({
      kind: 'message',
      tone: 'info',
      text: 'playback.player.noRecording',
      action: 'changeRange',
    });
  });

  it('says playback failed, for the ship’s failure and for any other failure, with Replay', () => {
    for (const error of [
      { kind: 'server' as const, code: 'playbackFailed' as const, message: '' },
      { kind: 'server' as const, code: 'internal' as const, message: '' },
      { kind: 'decode' as const, message: '' },
    ]) {
      expect(playbackOverlay(view({ state: 'error', error }), 0)).toMatchObject({ kind: 'message', text: 'playback.player.playbackFailed', action: 'replay' });
    }
  });

  it('says when the range has played to its end', () => {
    expect(playbackOverlay(view({ state: 'ended' }), 0)).toMatchObject({ text: 'playback.player.ended', action: 'replay' });
  });

  it('counts down the wait for the ship, then keeps the live cell’s states', () => {
    expect(playbackOverlay(view({ state: 'starting', waitUntil: 5000 }), 1000)).toEqual({ kind: 'busy', text: 'playback.player.waiting', seconds: 4 });
    expect(playbackOverlay(view({ state: 'reconnecting' }), 0)).toEqual({ kind: 'busy', text: 'playerCell.reconnecting' });
    expect(playbackOverlay(view({ state: 'limit' }), 0)).toMatchObject({ text: 'playerCell.limitReached', action: 'continue' });
    expect(playbackOverlay(view({ state: 'offline' }), 0, true)).toMatchObject({ text: 'playerCell.offline', hint: 'playerCell.shipLinkDown' });
    expect(playbackOverlay(view({ state: 'playing' }), 0)).toEqual({ kind: 'none' });
  });
});

describe('seek bar', () => {
  const range = { start: 1000, end: 5000 };

  it('stands at the recorded time on screen, inside the range', () => {
    expect(seekValue(undefined, range)).toBe(1000);
    expect(seekValue(3000, range)).toBe(3000);
    expect(seekValue(9000, range)).toBe(5000);
  });

  it('draws recorded spans as clipped, merged fractions of the range', () => {
    expect(
      spanBands(
        [
          { start: 3000, end: 4000 },
          { start: 0, end: 2000 },
          { start: 3500, end: 7000 },
          { start: 6000, end: 8000 },
        ],
        range,
      ),
    ).toEqual([
      { from: 0, to: 0.25 },
      { from: 0.5, to: 1 },
    ]);
    expect(spanBands([{ start: 0, end: 1 }], { start: 5, end: 5 })).toEqual([]);
  });
});
