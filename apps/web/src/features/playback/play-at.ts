import type { PlaybackOptions } from './options.ts';
import type { PlaybackSource } from './components/PlaybackSourceTree.tsx';

/** The desktop's ship playback screen. */
export const SHIP_PLAYBACK_PATH = '/live/recordlivevideo';

/**
 * Carried in the route's state to open ship playback of a camera at a time straight away (another
 * screen's "play this moment"): the screen plays it as if its options dialog had been confirmed.
 */
export interface PlayAtState {
  playAt: { source: PlaybackSource; options: PlaybackOptions };
}

export function isPlayAtState(value: unknown): value is PlayAtState {
  const play = (value as Partial<PlayAtState> | null)?.playAt;
  return !!play && typeof play.source?.cameraId === 'string' && typeof play.options?.start === 'number' && typeof play.options?.end === 'number';
}
