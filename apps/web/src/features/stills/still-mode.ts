import { policyLinkOf, type CellView, type LinkPolicyRule, type PolicyLink, type StillAnswer } from '@ship-cctv/protocol';

/**
 * What a live cell shows (issue 19 item 3): video, or stills — a picture refreshed every N seconds
 * — because the organisation's link policy says so for the ship's link, or because the ship's live
 * data budget is used up and its budget policy is "pictures only".
 */
export type StillsMode =
  /** Not known yet (policies loading, the ship's link not reported): the cell starts nothing. */
  | { kind: 'undecided' }
  /** Live video; `canGoBack`: the operator switched this cell from stills and may switch back. */
  | { kind: 'video'; canGoBack: boolean }
  | { kind: 'stills'; because: 'policy' | 'budget'; everySeconds: number; link: PolicyLink };

export interface StillsModeInput {
  /** The organisation's policies by link type; undefined while loading. */
  policies: Partial<Record<PolicyLink, Pick<LinkPolicyRule, 'stills' | 'stillsEverySeconds'>>> | undefined;
  /** The policies could not be loaded: video, as before policies. */
  policiesFailed: boolean;
  /** The ship's link (OFFLINE keeps the last link known); undefined: none known yet. */
  link: string | undefined;
  /** The cell's view; undefined outside a grid (no policy applies). */
  view: CellView | undefined;
  /** Why shore refused the cell's live video, if it did. */
  refusal: string | undefined;
  /** The operator switched this cell to video. */
  operatorChoseVideo: boolean;
}

export function stillsModeFor({ policies, policiesFailed, link, view, refusal, operatorChoseVideo }: StillsModeInput): StillsMode {
  const policyLink = policyLinkOf(link ?? 'DEFAULT');
  const rule = policies?.[policyLink];
  // No live video for this ship today: pictures are what is left, whatever the view.
  if (refusal === 'budgetStills') return { kind: 'stills', because: 'budget', everySeconds: rule?.stillsEverySeconds ?? 30, link: policyLink };
  // Outside a grid, and full screen: video (full screen follows the policy's fullScreen definition).
  if (!view || view.fullScreen) return { kind: 'video', canGoBack: false };
  if (policiesFailed) return { kind: 'video', canGoBack: false };
  if (!policies || link === undefined) return { kind: 'undecided' };
  if (!rule?.stills) return { kind: 'video', canGoBack: false };
  if (operatorChoseVideo) return { kind: 'video', canGoBack: true };
  return { kind: 'stills', because: 'policy', everySeconds: rule.stillsEverySeconds, link: policyLink };
}

/** Bytes an hour at this rate: the average of the last pictures × shots an hour; undefined without a picture. */
export function bytesPerHour(recentBytes: readonly number[], everySeconds: number): number | undefined {
  if (recentBytes.length === 0 || everySeconds <= 0) return undefined;
  const average = recentBytes.reduce((a, b) => a + b, 0) / recentBytes.length;
  return Math.round((average * 3600) / everySeconds);
}

/** The sizes the estimate averages: the pictures on shore, or the one on its way when there are none. */
export function costSample(answer: StillAnswer): number[] {
  if (answer.recentBytes.length > 0) return answer.recentBytes;
  return answer.pending?.bytes ? [answer.pending.bytes] : [];
}

/** A picture's age in the largest whole unit: 12 s, 3 min, 2 h. */
export function ageOf(takenAt: number, now: number): { unit: 'seconds' | 'minutes' | 'hours'; value: number } {
  const seconds = Math.max(0, Math.floor((now - takenAt) / 1000));
  if (seconds < 60) return { unit: 'seconds', value: seconds };
  if (seconds < 3600) return { unit: 'minutes', value: Math.floor(seconds / 60) };
  return { unit: 'hours', value: Math.floor(seconds / 3600) };
}

/** When the cell asks shore again after a failed request. */
export const RETRY_MS = 10_000;
