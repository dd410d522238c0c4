import type { TFunction } from 'i18next';
import { shipFailureOf, shipFailureText } from '../../shared/ship-failure/index.ts';

const REASONS = ['cameraOffline', 'noRecording', 'notFound', 'offline', 'timeout'] as const;
type Reason = (typeof REASONS)[number];
const isReason = (code: string): code is Reason => (REASONS as readonly string[]).includes(code);

/** Why a snapshot failed, in the page's language when the code is known, else as the ship said it. */
export function snapshotFailure(t: TFunction, code: string, message: string): string {
  return t('pictures.snapshot.failed', { message: isReason(code) ? t(`pictures.snapshot.reason.${code}`) : message });
}

/** Why a snapshot could not be asked of the ship, from the answer's reason: the link is down, or why else in the page's language. */
export function snapshotRequestFailure(t: TFunction, err: unknown): string {
  return shipFailureOf(err) === 'offline' ? t('pictures.snapshot.offline') : t('pictures.snapshot.failed', { message: shipFailureText(t, err) });
}

/** Why one of the ship's pictures could not be fetched: the link is down, or why else in the page's language. */
export function shipPictureFetchFailure(t: TFunction, err: unknown): string {
  return shipFailureOf(err) === 'offline' ? t('pictures.snapshot.offline') : t('pictures.loadFailed', { message: shipFailureText(t, err) });
}
