import { useEffect, useState } from 'react';
import { PTZ_MOVED_BY_MS, type PtzEvent, dest } from '@ship-cctv/protocol';
import { useDestination } from '../../../lib/realtime/index.ts';

/**
 * Who steers the camera, for a few seconds after each command anyone sends (STOMP
 * `/ptz/{cameraId}`): the operator's display name, or undefined. Timed by this browser's clock from
 * when the event arrived, so a ship-shore clock difference does not hide it.
 */
export function useMovedBy(cameraId: string, enabled = true): string | undefined {
  const event = useDestination<PtzEvent>(enabled ? dest.ptz(cameraId) : undefined);
  const [shown, setShown] = useState<string>();
  useEffect(() => {
    if (!event) return;
    setShown(event.by);
    const timer = window.setTimeout(() => setShown(undefined), PTZ_MOVED_BY_MS);
    return () => window.clearTimeout(timer);
  }, [event]);
  return shown;
}
