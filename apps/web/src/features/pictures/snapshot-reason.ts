import type { TFunction } from 'i18next';

const REASONS = ['cameraOffline', 'noRecording', 'notFound', 'offline', 'timeout'] as const;
type Reason = (typeof REASONS)[number];
const isReason = (code: string): code is Reason => (REASONS as readonly string[]).includes(code);

/** Why a snapshot failed, in the page's language when the code is known, else as the ship said it. */
export function snapshotFailure(t: TFunction, code: string, message: string): string {
  return t('pictures.snapshot.failed', { message: isReason(code) ? t(`pictures.snapshot.reason.${code}`) : message });
}
