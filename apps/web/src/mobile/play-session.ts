import type { PlayableSource } from '../shared/playable-source.ts';
import type { PlaybackOptions } from '../features/playback/index.ts';

/** The two things a long press offers (spec §2). */
export type PlayMode = 'live' | 'shipPlayback';

export type LiveDecision = { kind: 'play'; templateId: number | undefined } | { kind: 'refuse'; reason: 'noDefaultTemplate' };

/**
 * Which definition a live video starts with (spec §5): the one picked; else the ship's default
 * (sent as no template, so the server applies its own default as for the desktop); with no
 * default and none picked, nothing starts ("无默认清晰度模板"). When the templates could not be
 * read, the server decides and says so itself if it has no default.
 */
export function chooseLiveDefinition({ picked, defaultModelId, configKnown }: { picked: number | undefined; defaultModelId: number | undefined; configKnown: boolean }): LiveDecision {
  if (picked !== undefined) return { kind: 'play', templateId: picked === defaultModelId ? undefined : picked };
  if (defaultModelId !== undefined || !configKnown) return { kind: 'play', templateId: undefined };
  return { kind: 'refuse', reason: 'noDefaultTemplate' };
}

/** Where the mobile screen is: nothing open, the long-press sheet, or a mode's options dialog. */
export type ScreenStep =
  | { kind: 'idle' }
  | { kind: 'choose'; source: PlayableSource }
  | { kind: 'options'; mode: PlayMode; source: PlayableSource };

/** Carried in the route's state when a choice on one tab opens the other tab's options. */
export interface OpenOptionsState {
  openOptions: { mode: PlayMode; source: PlayableSource };
}

export function isOpenOptionsState(value: unknown): value is OpenOptionsState {
  const open = (value as Partial<OpenOptionsState> | null)?.openOptions;
  return !!open && (open.mode === 'live' || open.mode === 'shipPlayback') && typeof open.source?.cameraId === 'string';
}

/** Carried in the route's state to play a camera's recording at once (an event's moment). */
export interface PlayNowState {
  playNow: { source: PlayableSource; options: PlaybackOptions };
}

export function isPlayNowState(value: unknown): value is PlayNowState {
  const play = (value as Partial<PlayNowState> | null)?.playNow;
  return !!play && typeof play.source?.cameraId === 'string' && typeof play.options?.start === 'number' && typeof play.options?.end === 'number';
}
