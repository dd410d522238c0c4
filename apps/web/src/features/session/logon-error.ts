import type { TFunction } from 'i18next';
import { CODES } from '@ship-cctv/protocol';
import { ApiError } from '../../lib/api-client.ts';

/** Words a failed sign-in in the current language. */
export function logonErrorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.unreachable) return t('signIn.errors.unreachable');
    if (error.code === CODES.unauthorized) return t('signIn.errors.wrongCredentials');
    if (error.code === CODES.tooMany) return t('signIn.errors.lockedOut');
    return t('signIn.errors.failed', { message: error.message, code: error.code });
  }
  return t('signIn.errors.failed', { message: error instanceof Error ? error.message : String(error), code: '-' });
}
