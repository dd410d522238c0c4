import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type PtzSpeeds, type PtzTarget, ptzMove, ptzStop } from '../api/ptz.ts';
import { PtzHold } from '../hold.ts';
import { ptzErrorText } from '../ptz-error.ts';

/**
 * A press-and-hold controller for one camera (hold.ts), released when the window loses focus or
 * the component goes away. Failures are told through `onError` in the operator's language.
 */
export function usePtzHold(target: PtzTarget, onError: (text: string) => void): { press(speeds: PtzSpeeds): void; release(): void } {
  const { t } = useTranslation();
  const report = useRef(onError);
  report.current = onError;
  const { shipId, cameraId } = target;
  const hold = useMemo(
    () =>
      new PtzHold({
        move: (speeds, timeoutMs) => ptzMove({ shipId, cameraId }, speeds, timeoutMs),
        stop: () => ptzStop({ shipId, cameraId }),
        failed: (err) => report.current(ptzErrorText(t, err)),
      }),
    [shipId, cameraId, t],
  );
  useEffect(() => {
    const release = () => hold.release();
    window.addEventListener('blur', release);
    return () => {
      window.removeEventListener('blur', release);
      hold.release();
    };
  }, [hold]);
  return useMemo(() => ({ press: (s: PtzSpeeds) => hold.press(s), release: () => hold.release() }), [hold]);
}
