import type { TFunction } from 'i18next';
import type { TalkEndReason, TalkErrorCode } from '@ship-cctv/protocol';

/** Why a talk did not start, or ended other than by the operator: each has its own text. */
export type TalkProblem =
  | { kind: 'occupied'; holder: string | undefined }
  | { kind: 'micDenied' }
  | { kind: 'micMissing' }
  | { kind: 'unsupported' }
  | { kind: 'shipOffline' }
  | { kind: 'talkOff' }
  | { kind: 'failed'; message: string }
  | { kind: 'ended'; reason: Exclude<TalkEndReason, 'stopped'> | 'connectionLost'; message: string };

/** A getUserMedia (or encoder) failure, by the DOMException's name. */
export function microphoneProblem(err: unknown): TalkProblem {
  const name = err instanceof Error || (typeof err === 'object' && err !== null && 'name' in err) ? String((err as { name: unknown }).name) : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return { kind: 'micDenied' };
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return { kind: 'micMissing' };
  if (name === 'NotSupportedError' || name === 'TypeError') return { kind: 'unsupported' };
  return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
}

/** Shore refused the talk (`talk.error`). */
export function serverProblem(code: TalkErrorCode, message: string, holder?: string): TalkProblem {
  switch (code) {
    case 'occupied':
      return { kind: 'occupied', holder };
    case 'shipOffline':
      return { kind: 'shipOffline' };
    case 'talkOff':
      return { kind: 'talkOff' };
    case 'unsupported':
      return { kind: 'failed', message };
    default:
      return { kind: 'failed', message };
  }
}

/** A problem's text in the page's language. */
export function problemText(t: TFunction, p: TalkProblem): string {
  switch (p.kind) {
    case 'occupied':
      return p.holder ? t('talk.problem.occupied', { holder: p.holder }) : t('talk.problem.occupiedUnknown');
    case 'failed':
      return t('talk.problem.failed', { message: p.message });
    case 'ended':
      return t(`talk.ended.${p.reason}`, { message: p.message });
    default:
      return t(`talk.problem.${p.kind}`);
  }
}
