import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api-client.ts';
import { shipFailureText } from '../../shared/ship-failure/index.ts';

/**
 * A PTZ call's failure in the operator's language, from the answer's reason (the error envelope's
 * `reason`, never its message): the ship offline, a camera that is not PTZ, an agent that does not
 * steer cameras, an unknown preset; anything else is "PTZ control failed:" and why — a reason worded
 * once for every feature (the ship did not answer, …), or the ship's own words.
 */
export function ptzErrorText(t: TFunction, err: unknown): string {
  const reason = err instanceof ApiError ? err.reason : undefined;
  if (reason === 'offline') return t('ptz.error.offline');
  if (reason === 'notPtz') return t('ptz.error.notPtz');
  if (reason === 'unsupported') return t('ptz.error.unsupported');
  if (reason === 'notFound') return t('ptz.presets.notFound');
  return t('ptz.error.failed', { message: shipFailureText(t, err) });
}
