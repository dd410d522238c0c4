import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { DEFAULT_TIME_ZONE_ID, SHIP_PLAYBACK_PATH, toPlaybackSource, type PlayAtState } from '../../playback/index.ts';
import type { EventInfo } from '../api/events.ts';
import { playbackMoment } from '../event-view.ts';
import { useFindEventCamera } from './useEventCamera.ts';

/**
 * "Play this moment" on the desktop: ship playback of the event's camera from its start − 5 s,
 * opened on the ship playback screen. Answers false when the camera is not in the user's tree.
 */
export function usePlayEvent(now: () => number = Date.now) {
  const navigate = useNavigate();
  const find = useFindEventCamera();
  const [opening, setOpening] = useState<string>();
  const play = useCallback(
    async (event: EventInfo): Promise<boolean> => {
      setOpening(event.id);
      try {
        const found = await find(event);
        if (!found) return false;
        const { start, end } = playbackMoment(event, now());
        const state: PlayAtState = {
          playAt: {
            source: toPlaybackSource(found.ship, found.channel, found.camera, found.waitTime),
            // At 1×: the moment as it happened. No template: the ship's default definition.
            options: { timeZoneId: DEFAULT_TIME_ZONE_ID, start, end, speed: 1, template: undefined },
          },
        };
        await navigate(SHIP_PLAYBACK_PATH, { state });
        return true;
      } finally {
        setOpening(undefined);
      }
    },
    [find, navigate, now],
  );
  return { play, opening };
}
