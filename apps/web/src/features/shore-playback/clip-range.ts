/** Checks a clip range against the recording and the longest clip; answers the i18n key of the problem. */
export type ClipProblem = 'endBeforeStart' | 'maxLength' | 'outside';

export const CLIP_MAX_MS = 10 * 60_000;
/** The range offered first: 30 s from the time being shown. */
export const DEFAULT_CLIP_MS = 30_000;

export function clipProblem(range: { start: number; end: number }, recording: { start: number; end: number }, maxMs = CLIP_MAX_MS): ClipProblem | undefined {
  if (range.end <= range.start) return 'endBeforeStart';
  if (range.end - range.start > maxMs) return 'maxLength';
  if (range.start < recording.start || range.end > recording.end) return 'outside';
  return undefined;
}

/** A default clip of up to 30 s starting at `at`, inside the recording. */
export function defaultClip(at: number, recording: { start: number; end: number }): { start: number; end: number } {
  const start = Math.max(recording.start, Math.min(Math.round(at / 1000) * 1000, recording.end - DEFAULT_CLIP_MS));
  return { start, end: Math.min(recording.end, start + DEFAULT_CLIP_MS) };
}
