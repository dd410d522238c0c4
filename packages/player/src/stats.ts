import type { PlayerStats } from './types.ts';

/** The stats of a player that has shown nothing yet. */
export function emptyStats(): PlayerStats {
  return {
    latencyMs: undefined,
    bitrateKbps: 0,
    audioKbps: 0,
    fps: 0,
    bytesReceived: 0,
    droppedFrames: 0,
    firstFrameMs: undefined,
    captureLatencyMs: undefined,
    pictureAgeMs: undefined,
    playbackRate: 1,
    latencyTargetMs: undefined,
    reconnects: 0,
    width: undefined,
    height: undefined,
  };
}

/** The median of a list (the upper one of an even count); undefined for none. */
export function medianOf(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** So an explicit `undefined` option does not override a default. */
export function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Notes when the picture of presentation time `media` (the list's unit) left the encoder, keeping
 * the list in presentation order: with B-frames pictures arrive in decode order (a later picture
 * before the ones predicted from it) and are shown in presentation order, the order the players'
 * picture-age readers walk the list in.
 */
export function notePresentation(list: Array<[media: number, wallMs: number]>, media: number, wallMs: number): void {
  let i = list.length;
  while (i > 0 && (list[i - 1]?.[0] ?? 0) > media) i--;
  list.splice(i, 0, [media, wallMs]);
}
