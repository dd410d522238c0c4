import { describe, expect, it } from 'vitest';
import type { PlayerError, PlayerState } from '@ship-cctv/player';
import { CAMERA_SILENT_REASON } from '@ship-cctv/protocol';
import {
  bannerFor,
  continuedView,
  initialPlayerView,
  limitSecondsLeft,
  needsClock,
  overlayFor,
  reducePlayerEvent,
  RESTORED_NOTE_MS,
  secondsLeft,
  startedView,
  type PlayerEvent,
  type PlayerView,
} from './player-view.ts';

const view = (patch: Partial<PlayerView>): PlayerView => ({ ...initialPlayerView(), ...patch });
const serverError = (code: NonNullable<PlayerError['code']>): PlayerError => ({ kind: 'server', code, message: code });

describe('secondsLeft (countdown formatting)', () => {
  it('rounds up, so the last second shows until it is over', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 1)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
  });

  it('never goes below zero', () => {
    expect(secondsLeft(1_000, 5_000)).toBe(0);
  });
});

describe('limitSecondsLeft', () => {
  it('counts down locally between the server ticks', () => {
    expect(limitSecondsLeft({ seconds: 30, at: 1_000 }, 1_000)).toBe(30);
    expect(limitSecondsLeft({ seconds: 30, at: 1_000 }, 2_200)).toBe(29);
  });

  it('forgets a countdown the server stopped sending', () => {
    expect(limitSecondsLeft({ seconds: 30, at: 0 }, 3_000)).toBeUndefined();
    expect(limitSecondsLeft(undefined, 0)).toBeUndefined();
  });
});

describe('a camera that stops sending', () => {
  const silentError = { kind: 'stalled' as const, message: CAMERA_SILENT_REASON };
  it('says "camera not sending" when the server says so on the stream, or the camera\'s live status says it is offline', () => {
    const silent = { kind: 'message', tone: 'warning', text: 'cameraSilent' };
    expect(overlayFor(view({ state: 'stalled', error: silentError }), 0)).toEqual(silent);
    expect(overlayFor(view({ state: 'playing' }), 0, false, true)).toEqual(silent);
    expect(overlayFor(view({ state: 'stalled' }), 0, false, true)).toEqual(silent);
    expect(overlayFor(view({ state: 'reconnecting' }), 0, false, true)).toEqual(silent);
  });
  it('leaves other states and a ship whose link is down to their own words', () => {
    expect(overlayFor(view({ state: 'stalled' }), 0)).toMatchObject({ text: 'stalled' });
    expect(overlayFor(view({ state: 'stalled', error: silentError }), 0, true)).toMatchObject({ text: 'stalled' });
    expect(overlayFor(view({ state: 'playing' }), 0, true, true)).toEqual({ kind: 'none' });
    expect(overlayFor(view({ state: 'offline' }), 0, false, true)).toMatchObject({ text: 'offline' });
    expect(overlayFor(view({ state: 'limit' }), 0, false, true)).toMatchObject({ text: 'limitReached' });
  });
  it('goes once frames play again and the camera is back', () => {
    const back = reducePlayerEvent(view({ state: 'stalled', error: silentError }), { type: 'state', payload: { state: 'playing' } } as PlayerEvent, 0);
    expect(overlayFor(back, 0, false, false)).toEqual({ kind: 'none' });
  });
});

describe('overlayFor', () => {
  const cases: [string, PlayerView, ReturnType<typeof overlayFor>][] = [
    ['playing: nothing covers the picture', view({ state: 'playing' }), { kind: 'none' }],
    ['offline: channel not online', view({ state: 'offline' }), { kind: 'message', tone: 'warning', text: 'offline' }],
    ['stalled: unstable network', view({ state: 'stalled' }), { kind: 'message', tone: 'warning', text: 'stalled' }],
    ['limit: paused, continue', view({ state: 'limit' }), { kind: 'message', tone: 'info', text: 'limitReached', action: 'continue' }],
    ['ended: replay', view({ state: 'ended' }), { kind: 'message', tone: 'info', text: 'ended', action: 'replay' }],
    [
      'noDefaultTemplate: the spec text, pointing at the definition switch',
      view({ state: 'error', error: serverError('noDefaultTemplate') }),
      { kind: 'message', tone: 'warning', text: 'noDefaultTemplate', hint: 'chooseDefinition' },
    ],
    ['forbidden', view({ state: 'error', error: serverError('forbidden') }), { kind: 'message', tone: 'error', text: 'forbidden' }],
    ['unauthorized reads as forbidden', view({ state: 'error', error: serverError('unauthorized') }), { kind: 'message', tone: 'error', text: 'forbidden' }],
    ['notFound', view({ state: 'error', error: serverError('notFound') }), { kind: 'message', tone: 'error', text: 'notFound' }],
    ['budgetStills: pictures only', view({ state: 'error', error: serverError('budgetStills') }), { kind: 'message', tone: 'warning', text: 'budgetStills' }],
    [
      'budgetBlocked: where to override, then replay',
      view({ state: 'error', error: serverError('budgetBlocked') }),
      { kind: 'message', tone: 'warning', text: 'budgetBlocked', hint: 'budgetOverrideHint', action: 'replay' },
    ],
    [
      'unsupported codec',
      view({ state: 'error', error: { kind: 'unsupported', message: '' } }),
      { kind: 'message', tone: 'error', text: 'unsupported' },
    ],
    [
      'a codec this browser cannot decode, named',
      view({ state: 'error', error: { kind: 'unsupported', message: '' }, codec: { type: 'codec', mime: 'video/mp4; codecs="av01.0.04M.08"', width: 320, height: 180, frameRate: 3, templateId: 12 } }),
      { kind: 'message', tone: 'error', text: 'unsupportedCodec', codec: 'AV1' },
    ],
    ['badRequest: play failed, replay', view({ state: 'error', error: serverError('badRequest') }), { kind: 'message', tone: 'error', text: 'playFailed', action: 'replay' }],
    ['startFailed while retrying: play failed, still busy', view({ state: 'reconnecting', error: serverError('startFailed') }), { kind: 'busy', text: 'playFailed' }],
    ['startup time-out: play failed, still busy', view({ state: 'starting', error: { kind: 'startup', message: '' } }), { kind: 'busy', text: 'playFailed' }],
    [
      'autoplay refused: click to play',
      view({ state: 'starting', error: { kind: 'autoplay', message: '' } }),
      { kind: 'message', tone: 'info', text: 'clickToPlay', action: 'clickToPlay' },
    ],
    ['reconnecting', view({ state: 'reconnecting' }), { kind: 'busy', text: 'reconnecting' }],
    ['starting with a wait: countdown', view({ state: 'starting', waitUntil: 8_000 }), { kind: 'busy', text: 'waiting', seconds: 8 }],
    ['starting past the wait: please wait', view({ state: 'starting', waitUntil: -1 }), { kind: 'busy', text: 'waitingLong' }],
    ['connecting without a wait', view({ state: 'connecting' }), { kind: 'busy', text: 'connecting' }],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(overlayFor(input, 0)).toEqual(expected);
  });

  it('says the ship link is down when the ship status says so', () => {
    expect(overlayFor(view({ state: 'offline' }), 0, true)).toEqual({ kind: 'message', tone: 'warning', text: 'offline', hint: 'shipLinkDown' });
  });

  it('has an overlay for every player state', () => {
    const states: PlayerState[] = ['idle', 'connecting', 'starting', 'playing', 'stalled', 'reconnecting', 'offline', 'limit', 'ended', 'error'];
    for (const state of states) expect(overlayFor(view({ state }), 0).kind).toMatch(/none|busy|message/);
  });
});

describe('reducePlayerEvent', () => {
  it('starts the wait countdown from the tree, then from the server', () => {
    let v = startedView(1_000, 8);
    expect(v.waitUntil).toBe(9_000);
    v = reducePlayerEvent(v, { type: 'status', payload: { type: 'status', state: 'starting', waitSeconds: 3 } }, 2_000);
    expect(v.waitUntil).toBe(5_000);
    expect(overlayFor(v, 2_000)).toEqual({ kind: 'busy', text: 'waiting', seconds: 3 });
  });

  it('never counts the wait up: a longer estimate from the server keeps the earlier deadline', () => {
    let v = startedView(1_000, 8);
    expect(overlayFor(v, 1_000)).toEqual({ kind: 'busy', text: 'waiting', seconds: 8 });
    v = reducePlayerEvent(v, { type: 'status', payload: { type: 'status', state: 'starting', waitSeconds: 9 } }, 1_300);
    expect(overlayFor(v, 1_300)).toEqual({ kind: 'busy', text: 'waiting', seconds: 8 });
    // The server repeating its estimate later does not restart it either.
    v = reducePlayerEvent(v, { type: 'status', payload: { type: 'status', state: 'starting', waitSeconds: 9 } }, 4_000);
    expect(overlayFor(v, 4_000)).toEqual({ kind: 'busy', text: 'waiting', seconds: 5 });
  });

  it('clears the error and the wait once frames show', () => {
    let v = view({ state: 'starting', error: { kind: 'startup', message: '' }, waitUntil: 5 });
    v = reducePlayerEvent(v, { type: 'state', payload: { state: 'playing', previous: 'starting' } }, 0);
    expect(v.error).toBeUndefined();
    expect(v.waitUntil).toBeUndefined();
  });

  it('shows the limit countdown as a banner while playing, and drops it when stopped', () => {
    let v = view({ state: 'playing' });
    v = reducePlayerEvent(v, { type: 'status', payload: { type: 'status', state: 'limit', countdownSeconds: 30 } }, 100);
    expect(bannerFor(v, 100)).toEqual({ kind: 'limitCountdown', seconds: 30, failed: false });
    expect(needsClock(v, 100)).toBe(true);
    v = reducePlayerEvent(v, { type: 'status', payload: { type: 'status', state: 'limit', countdownSeconds: 0 } }, 30_100);
    v = reducePlayerEvent(v, { type: 'state', payload: { state: 'limit', previous: 'playing' } }, 30_100);
    expect(bannerFor(v, 30_100)).toBeUndefined();
    expect(overlayFor(v, 30_100)).toMatchObject({ text: 'limitReached', action: 'continue' });
  });

  it('keeps the lowest-definition warning until restored, and shows the restored note for a while', () => {
    let v = view({ state: 'playing' });
    v = reducePlayerEvent(v, { type: 'notice', payload: { type: 'notice', code: 'lowestDefinition', templateId: 5 } }, 0);
    expect(bannerFor(v, 600_000)).toEqual({ kind: 'lowestDefinition' });
    v = reducePlayerEvent(v, { type: 'notice', payload: { type: 'notice', code: 'definitionRestored', templateId: 6 } }, 1_000);
    expect(bannerFor(v, 1_000)).toEqual({ kind: 'definitionRestored' });
    expect(bannerFor(v, 1_000 + RESTORED_NOTE_MS)).toBeUndefined();
    expect(needsClock(v, 1_000 + RESTORED_NOTE_MS)).toBe(false);
  });

  it('says for the whole view that a used-up data budget holds it at the lowest definition', () => {
    const v = reducePlayerEvent(view({ state: 'playing' }), { type: 'notice', payload: { type: 'notice', code: 'budgetLowest', templateId: 5 } }, 0);
    expect(bannerFor(v, 3_600_000)).toEqual({ kind: 'budgetLowest' });
    expect(needsClock(v, 0)).toBe(false);
  });

  it('drops the limit banner the moment Continue is pressed, before the server stops its ticks', () => {
    let v = view({ state: 'playing' });
    v = reducePlayerEvent(v, { type: 'status', payload: { type: 'status', state: 'limit', countdownSeconds: 30 } }, 100);
    v = continuedView(v, 1_000);
    expect(bannerFor(v, 1_000)).toBeUndefined();
    // Minutes later the next limit counts down as usual, with no failure to tell.
    v = reducePlayerEvent(v, { type: 'status', payload: { type: 'status', state: 'limit', countdownSeconds: 30 } }, 600_000);
    expect(bannerFor(v, 600_000)).toEqual({ kind: 'limitCountdown', seconds: 30, failed: false });
  });

  it('brings the limit banner back, saying Continue failed, when the countdown goes on after it', () => {
    let v = view({ state: 'playing' });
    v = reducePlayerEvent(v, { type: 'status', payload: { type: 'status', state: 'limit', countdownSeconds: 30 } }, 100);
    v = continuedView(v, 1_000);
    v = reducePlayerEvent(v, { type: 'status', payload: { type: 'status', state: 'limit', countdownSeconds: 29 } }, 1_400);
    expect(bannerFor(v, 1_400)).toEqual({ kind: 'limitCountdown', seconds: 29, failed: true });
    // It keeps saying so for the rest of this countdown; another Continue tries again.
    v = reducePlayerEvent(v, { type: 'status', payload: { type: 'status', state: 'limit', countdownSeconds: 25 } }, 5_400);
    expect(bannerFor(v, 5_400)).toMatchObject({ failed: true });
    expect(bannerFor(continuedView(v, 5_500), 5_500)).toBeUndefined();
  });

  it('ends the lowest-definition warning when the stream plays another definition (no restored notice needed)', () => {
    let v = view({ state: 'playing' });
    v = reducePlayerEvent(v, { type: 'notice', payload: { type: 'notice', code: 'lowestDefinition', templateId: 5 } }, 0);
    v = reducePlayerEvent(v, { type: 'codec', payload: { type: 'codec', mime: 'video/mp4; codecs="avc1.42c01e"', width: 320, height: 180, frameRate: 5, templateId: 5 } }, 100);
    expect(bannerFor(v, 200)).toEqual({ kind: 'lowestDefinition' });
    v = reducePlayerEvent(v, { type: 'codec', payload: { type: 'codec', mime: 'video/mp4; codecs="avc1.42c01e"', width: 640, height: 360, frameRate: 10, templateId: 6 } }, 300);
    expect(bannerFor(v, 400)).toBeUndefined();
  });
});
