/**
 * What a play cell shows, decided from what its MsePlayer reported. The player reports states and
 * typed errors; these pure functions are the "view decides" half (conventions: the player is a
 * class, the view picks texts and actions), kept apart from React so every mapping is tested.
 */
import type { CodecInfo, NoticeInfo, PlayerError, PlayerEventMap, PlayerState } from '@ship-cctv/player';
import { CAMERA_SILENT_REASON, codecLabel } from '@ship-cctv/protocol';

/** What the cell remembers of the player's events since the last play(). */
export interface PlayerView {
  state: PlayerState;
  /** The last error; cleared once frames show again. */
  error: PlayerError | undefined;
  /** When the first frame is expected (ms, performance clock), from the wait time; while starting. */
  waitUntil: number | undefined;
  /** The continuous-watching limit's countdown, as last sent, and when it was received. */
  limit: { seconds: number; at: number } | undefined;
  /** The last definition notice, the definition it names and when it came (the restored note fades after a while). */
  notice: { code: NoticeInfo['code']; templateId: number; at: number } | undefined;
  codec: CodecInfo | undefined;
  /** When the operator last pressed Continue on the limit's countdown (its banner goes at once). */
  continuedAt: number | undefined;
  /** The countdown went on after Continue: the server did not take it (the banner says so). */
  continueFailed: boolean;
}

export function initialPlayerView(): PlayerView {
  return { state: 'idle', error: undefined, waitUntil: undefined, limit: undefined, notice: undefined, codec: undefined, continuedAt: undefined, continueFailed: false };
}

export type PlayerEvent = { [K in keyof PlayerEventMap]: { type: K; payload: PlayerEventMap[K] } }[keyof PlayerEventMap];

/** A fresh play() (new camera or definition): forget the last stream but keep the wait estimate. */
export function startedView(now: number, waitSeconds: number): PlayerView {
  return { ...initialPlayerView(), state: 'connecting', waitUntil: now + Math.max(0, waitSeconds) * 1000 };
}

export function reducePlayerEvent(view: PlayerView, event: PlayerEvent, now: number): PlayerView {
  switch (event.type) {
    case 'state': {
      const state = event.payload.state;
      if (state === 'playing') return { ...view, state, error: undefined, waitUntil: undefined };
      // A stop ends any countdown: the next one is the server's to send.
      if (state === 'limit' || state === 'ended' || state === 'idle') return { ...view, state, limit: undefined };
      return { ...view, state };
    }
    case 'error':
      return { ...view, error: event.payload };
    case 'status': {
      const status = event.payload;
      if (status.state === 'starting') {
        // The server knows the organisation's current wait better than the tree did, but a
        // countdown never counts up: a later or longer estimate does not move the deadline back
        // (past it the cell says the wait is taking longer than usual).
        if (status.waitSeconds === undefined) return view;
        const deadline = now + status.waitSeconds * 1000;
        return { ...view, waitUntil: view.waitUntil === undefined ? deadline : Math.min(view.waitUntil, deadline) };
      }
      if (status.state === 'limit' && status.countdownSeconds !== undefined && status.countdownSeconds > 0) {
        // A tick right after Continue: the server did not take it, the countdown runs on.
        const failed = view.continuedAt !== undefined && now - view.continuedAt < LIMIT_STALE_MS;
        return { ...view, limit: { seconds: status.countdownSeconds, at: now }, continueFailed: failed || view.continueFailed };
      }
      return view;
    }
    case 'notice':
      return { ...view, notice: { code: event.payload.code, templateId: event.payload.templateId, at: now } };
    case 'codec': {
      // The "lowest definition" warning holds while the lowest plays: a stream at another definition ends it.
      const stale = view.notice?.code === 'lowestDefinition' && view.notice.templateId !== event.payload.templateId;
      return { ...view, codec: event.payload, ...(stale ? { notice: undefined } : {}) };
    }
    case 'continued':
      return continuedView(view, now);
    case 'reconnect':
    case 'firstFrame':
      return view;
  }
}

/**
 * The operator pressed Continue on the limit's countdown (the player says `continued`, whichever
 * control called it): its banner goes at once, without waiting
 * for the server's ticks to stop; a tick that still comes brings it back, saying Continue failed.
 */
export function continuedView(view: PlayerView, now: number): PlayerView {
  return { ...view, limit: undefined, continuedAt: now, continueFailed: false };
}

/** Whole seconds left until `deadline`, never negative; rounds up so "1" shows until the end. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/**
 * The limit countdown as the cell shows it: counted down locally between the server's ticks, and
 * dropped when the server has been silent for a while (it re-armed the limit after Continue).
 */
export function limitSecondsLeft(limit: PlayerView['limit'], now: number): number | undefined {
  if (!limit) return undefined;
  if (now - limit.at > LIMIT_STALE_MS) return undefined;
  return secondsLeft(limit.at + limit.seconds * 1000, now);
}
const LIMIT_STALE_MS = 2500;

/** A "restored" note is news for a few seconds; the "lowest" warning stays until restored. */
export const RESTORED_NOTE_MS = 6000;

export type CellTextKey =
  | 'connecting'
  | 'waiting'
  | 'waitingLong'
  | 'reconnecting'
  | 'playFailed'
  | 'offline'
  | 'stalled'
  | 'cameraSilent'
  | 'noDefaultTemplate'
  | 'forbidden'
  | 'notFound'
  | 'unsupported'
  | 'unsupportedCodec'
  | 'clickToPlay'
  | 'ended'
  | 'limitReached'
  | 'budgetStills'
  | 'budgetBlocked';

/** What covers the video: nothing, a spinner with a text, or a message with an action. */
export type Overlay =
  | { kind: 'none' }
  | { kind: 'busy'; text: CellTextKey; seconds?: number }
  | {
      kind: 'message';
      tone: 'error' | 'warning' | 'info';
      text: CellTextKey;
      /** A second line: e.g. where to go from "no default template". */
      hint?: 'chooseDefinition' | 'shipLinkDown' | 'budgetOverrideHint';
      /** With `unsupportedCodec`: the codec the browser cannot decode (H.264, H.265, AV1). */
      codec?: string;
      action?: 'replay' | 'continue' | 'clickToPlay';
    };

/**
 * Whether the camera of a stream the cell was showing has stopped sending: the ship reported it
 * (the camera's live status on STOMP says offline, `cameraOffline`) or the server said so on the
 * stream. The stream waits for the camera and goes on when it is back. Not while the ship's link
 * is down: that explains it better.
 */
export function cameraSilent(view: PlayerView, cameraOffline: boolean, shipLinkDown: boolean): boolean {
  if (shipLinkDown) return false;
  const { state, error } = view;
  if (state === 'stalled' && error?.kind === 'stalled' && error.message === CAMERA_SILENT_REASON) return true;
  return cameraOffline && (state === 'playing' || state === 'stalled' || state === 'reconnecting');
}

/**
 * The cell's main overlay for a player view at `now`. `shipLinkDown`: the ship's live status says
 * its link is OFFLINE, which explains an offline channel better than the channel itself.
 * `cameraOffline`: the camera's live status says it is not sending.
 */
export function overlayFor(view: PlayerView, now: number, shipLinkDown = false, cameraOffline = false): Overlay {
  const { state, error } = view;
  if (cameraSilent(view, cameraOffline, shipLinkDown)) return { kind: 'message', tone: 'warning', text: 'cameraSilent' };
  switch (state) {
    case 'playing':
      return { kind: 'none' };
    case 'offline':
      return { kind: 'message', tone: 'warning', text: 'offline', ...(shipLinkDown ? { hint: 'shipLinkDown' as const } : {}) };
    case 'stalled':
      return { kind: 'message', tone: 'warning', text: 'stalled' };
    case 'limit':
      return { kind: 'message', tone: 'info', text: 'limitReached', action: 'continue' };
    case 'ended':
      return { kind: 'message', tone: 'info', text: 'ended', action: 'replay' };
    case 'error':
      return errorOverlay(error, view.codec);
    case 'idle':
    case 'connecting':
    case 'starting':
    case 'reconnecting': {
      // A transient error while the player retries by itself: say so, keep the spinner.
      if (error?.kind === 'autoplay') return { kind: 'message', tone: 'info', text: 'clickToPlay', action: 'clickToPlay' };
      if (error && (error.kind === 'startup' || error.kind === 'decode' || (error.kind === 'server' && error.code === 'startFailed'))) {
        return { kind: 'busy', text: 'playFailed' };
      }
      if (state === 'reconnecting') return { kind: 'busy', text: 'reconnecting' };
      if (view.waitUntil !== undefined) {
        const seconds = secondsLeft(view.waitUntil, now);
        return seconds > 0 ? { kind: 'busy', text: 'waiting', seconds } : { kind: 'busy', text: 'waitingLong' };
      }
      return { kind: 'busy', text: 'connecting' };
    }
  }
}

function errorOverlay(error: PlayerError | undefined, codec: CodecInfo | undefined): Overlay {
  // Named when known: the operator learns what this browser lacks, not only that it fails.
  if (error?.kind === 'unsupported') return codec ? { kind: 'message', tone: 'error', text: 'unsupportedCodec', codec: codecLabel(codec.mime) } : { kind: 'message', tone: 'error', text: 'unsupported' };
  if (error?.kind === 'server') {
    switch (error.code) {
      case 'noDefaultTemplate':
        return { kind: 'message', tone: 'warning', text: 'noDefaultTemplate', hint: 'chooseDefinition' };
      case 'forbidden':
      case 'unauthorized':
        return { kind: 'message', tone: 'error', text: 'forbidden' };
      case 'notFound':
        return { kind: 'message', tone: 'error', text: 'notFound' };
      case 'budgetStills':
        return { kind: 'message', tone: 'warning', text: 'budgetStills' };
      case 'budgetBlocked':
        return { kind: 'message', tone: 'warning', text: 'budgetBlocked', hint: 'budgetOverrideHint', action: 'replay' };
      default:
        break;
    }
  }
  return { kind: 'message', tone: 'error', text: 'playFailed', action: 'replay' };
}

/** A banner over a picture that keeps playing: the limit countdown or a definition notice. */
export type Banner =
  /** `failed`: the operator's Continue did not stop the countdown. */
  | { kind: 'limitCountdown'; seconds: number; failed: boolean }
  | { kind: 'lowestDefinition' }
  | { kind: 'definitionRestored' }
  | { kind: 'budgetLowest' };

export function bannerFor(view: PlayerView, now: number): Banner | undefined {
  const seconds = limitSecondsLeft(view.limit, now);
  if (seconds !== undefined && view.state === 'playing') return { kind: 'limitCountdown', seconds, failed: view.continueFailed };
  if (view.notice?.code === 'lowestDefinition') return { kind: 'lowestDefinition' };
  // The ship's data budget is used up: this view streams its lowest definition for as long as it runs.
  if (view.notice?.code === 'budgetLowest') return { kind: 'budgetLowest' };
  if (view.notice?.code === 'definitionRestored' && now - view.notice.at < RESTORED_NOTE_MS) return { kind: 'definitionRestored' };
  return undefined;
}

/** Whether the view changes by itself with time (a countdown or a fading note), so the cell ticks. */
export function needsClock(view: PlayerView, now: number): boolean {
  if (view.limit && limitSecondsLeft(view.limit, now) !== undefined) return true;
  if (view.waitUntil !== undefined && view.state !== 'playing' && secondsLeft(view.waitUntil, now) > 0) return true;
  return view.notice?.code === 'definitionRestored' && now - view.notice.at < RESTORED_NOTE_MS;
}
