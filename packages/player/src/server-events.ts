import type { MediaErrorCode, MediaServerMessage } from '@ship-cctv/protocol';
import type { PlayerError, PlayerState } from './types.ts';

/** What a status, notice or error event from the server means for the player. */
export interface ServerEffect {
  state?: PlayerState;
  error?: PlayerError;
  /**
   * true: the server ended the stream on purpose, so a socket close after it is not reconnected
   * (that would restart a stream the operator was stopped from watching). false: clears it.
   */
  final?: boolean;
  /**
   * true: the server has explained why no bytes come (starting, stalled upstream, offline, limit),
   * so silence is not a reason to reconnect. false: clears it.
   */
  hold?: boolean;
  /** The server's expected wait before the first frame, added to the startup bound. */
  startupGraceMs?: number;
}

/**
 * Errors that the same request will meet again: reconnecting would only repeat them. A ship-end
 * playback that found nothing or failed on the ship is not asked again over the satellite link by
 * itself: the operator decides (another range, or Replay).
 */
const PERMANENT: ReadonlySet<MediaErrorCode> = new Set([
  'badRequest',
  'unauthorized',
  'forbidden',
  'notFound',
  'noDefaultTemplate',
  'noRecording',
  'playbackFailed',
  // The ship's data budget refuses live video: asking again changes nothing until it changes.
  'budgetStills',
  'budgetBlocked',
]);

export function interpretServerMessage(
  msg: Exclude<MediaServerMessage, { type: 'codec' }>,
  ctx: { framesShowing: boolean },
): ServerEffect {
  switch (msg.type) {
    case 'status':
      switch (msg.state) {
        case 'starting':
          return { state: 'starting', final: false, hold: true, startupGraceMs: (msg.waitSeconds ?? 0) * 1000 };
        case 'playing':
          // The server relays; the player says "playing" only once a frame is on screen.
          return { ...(ctx.framesShowing ? { state: 'playing' as const } : {}), final: false, hold: false };
        case 'stalled':
          return { state: 'stalled', hold: true, error: { kind: 'stalled', message: msg.reason ?? 'The stream stalled at the source' } };
        case 'offline':
          return { state: 'offline', hold: true, error: { kind: 'offline', message: msg.reason ?? 'The camera is offline' } };
        case 'limit':
          // A countdown is a warning (the status event carries it); 0 or none means stopped.
          if (msg.countdownSeconds !== undefined && msg.countdownSeconds > 0) return {};
          return { state: 'limit', final: true, hold: true };
        case 'ended':
          return { state: 'ended', final: true, hold: true };
      }
      break;
    case 'notice':
      return {};
    case 'error': {
      if (msg.code === 'cameraOffline') {
        return { state: 'offline', hold: true, error: { kind: 'offline', code: msg.code, message: msg.message } };
      }
      const permanent = PERMANENT.has(msg.code);
      return {
        ...(permanent ? { state: 'error' as const, final: true } : {}),
        error: { kind: 'server', code: msg.code, message: msg.message },
      };
    }
  }
  // A state or event type newer than this player: ignore it rather than fail.
  return {};
}
