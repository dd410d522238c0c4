import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api-client.ts';

/**
 * A PTZ call's failure in the operator's language: shore's message starts with its reason
 * (`offline:`, `notPtz:`, `unsupported:`, `notFound:`, `failed:`), see apps/server/src/ptz.
 */
export function ptzErrorText(t: TFunction, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const reason = /^(offline|notPtz|unsupported|notFound|failed): /.exec(message)?.[1];
  if (reason === 'offline' || (err instanceof ApiError && err.code === 503 && reason === undefined)) return t('ptz.error.offline');
  if (reason === 'notPtz') return t('ptz.error.notPtz');
  if (reason === 'unsupported') return t('ptz.error.unsupported');
  if (reason === 'notFound') return t('ptz.presets.notFound');
  return t('ptz.error.failed', { message: message.replace(/^failed: /, '') });
}
