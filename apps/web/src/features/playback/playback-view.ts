/**
 * What the ship-end playback player shows, decided from its MsePlayer's events (the "view decides"
 * half, pure and tested). Built on the live cell's rules (shared/player-cell/player-view.ts) with the
 * playback cases on top: nothing recorded, playback failed, the range played to its end.
 */
import { overlayFor, type CellTextKey, type Overlay, type PlayerView } from '../../shared/player-cell/index.ts';
import type { playbackZhCN } from './locales.ts';

type CellHintKey = NonNullable<Extract<Overlay, { kind: 'message' }>['hint']>;
export type PlaybackTextKey = `playback.player.${keyof typeof playbackZhCN.player & string}` | `playerCell.${CellTextKey | CellHintKey}`;

export type PlaybackOverlay =
  | { kind: 'none' }
  | { kind: 'busy'; text: PlaybackTextKey; seconds?: number }
  | {
      kind: 'message';
      tone: 'error' | 'warning' | 'info';
      text: PlaybackTextKey;
      hint?: PlaybackTextKey;
      /** replay: the same range again; changeRange: open the options; continue: after the watching limit. */
      action?: 'replay' | 'changeRange' | 'continue' | 'clickToPlay';
    };

export function playbackOverlay(view: PlayerView, now: number, shipLinkDown = false): PlaybackOverlay {
  const { state, error } = view;
  if (state === 'error' && error?.kind === 'server' && error.code === 'noRecording') {
    return { kind: 'message', tone: 'info', text: 'playback.player.noRecording', action: 'changeRange' };
  }
  if (state === 'error' && error?.kind === 'server' && error.code === 'playbackFailed') {
    return { kind: 'message', tone: 'error', text: 'playback.player.playbackFailed', action: 'replay' };
  }
  if (state === 'ended') return { kind: 'message', tone: 'info', text: 'playback.player.ended', action: 'replay' };

  const live = overlayFor(view, now, shipLinkDown);
  switch (live.kind) {
    case 'none':
      return live;
    case 'busy':
      // The ship looks the recording up before it sends: say what is being waited for.
      if (live.text === 'waiting') return { kind: 'busy', text: 'playback.player.waiting', ...(live.seconds === undefined ? {} : { seconds: live.seconds }) };
      return { kind: 'busy', text: `playerCell.${live.text}` };
    case 'message':
      return {
        kind: 'message',
        tone: live.tone,
        // Every other failure of a playback is a failed playback to the operator.
        text: live.text === 'playFailed' ? 'playback.player.playbackFailed' : `playerCell.${live.text}`,
        ...(live.hint ? { hint: `playerCell.${live.hint}` as const } : {}),
        ...(live.action ? { action: live.action } : {}),
      };
  }
}

/** Where the seek bar stands: the recorded time on screen, kept inside the range. */
export function seekValue(shown: number | undefined, range: { start: number; end: number }): number {
  if (shown === undefined || Number.isNaN(shown)) return range.start;
  return Math.min(range.end, Math.max(range.start, shown));
}

/** Recorded spans as fractions of the range (for the bar under the slider), clipped and merged. */
export function spanBands(spans: readonly { start: number; end: number }[], range: { start: number; end: number }): { from: number; to: number }[] {
  const length = range.end - range.start;
  if (length <= 0) return [];
  const bands: { from: number; to: number }[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const from = (Math.max(span.start, range.start) - range.start) / length;
    const to = (Math.min(span.end, range.end) - range.start) / length;
    if (to <= from) continue;
    const last = bands.at(-1);
    if (last && from <= last.to) last.to = Math.max(last.to, to);
    else bands.push({ from, to });
  }
  return bands;
}
