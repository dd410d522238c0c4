import { useCallback, useEffect, useReducer, useRef, useState, type RefObject } from 'react';
import { MsePlayer, type PlaybackPosition, type PlayerEventMap } from '@ship-cctv/player';
import type { PlaybackSpeed, ShipPlaybackCommand } from '@ship-cctv/protocol';
import { initialPlayerView, reducePlayerEvent, startedView, type PlayerEvent, type PlayerView } from '../../live/player-view.ts';

/** Reconnect pacing for satellite links, as the live cells. */
const RECONNECT = { minMs: 500, maxMs: 8000 };

type Action = { kind: 'event'; event: PlayerEvent; now: number } | { kind: 'started'; now: number; waitSeconds: number };

function reducer(view: PlayerView, action: Action): PlayerView {
  return action.kind === 'started' ? startedView(action.now, action.waitSeconds) : reducePlayerEvent(view, action.event, action.now);
}

const EVENTS = ['state', 'error', 'status', 'notice', 'codec'] as const satisfies readonly (keyof PlayerEventMap)[];

export interface PlaybackPlayerHandle {
  player: MsePlayer | undefined;
  view: PlayerView;
  /** The last position (server's, or the target of a seek); undefined before the first. */
  position: PlaybackPosition | undefined;
  replay(): void;
  pause(): void;
  resume(): void;
  seek(time: number): void;
  setSpeed(speed: PlaybackSpeed): void;
  continueWatching(): void;
}

/**
 * The React side of a ship-end playback: one MsePlayer per <video>, playing `command` whenever it
 * changes (a new range, camera or template from the options dialog) and stopping on unmount.
 */
export function usePlaybackPlayer(videoRef: RefObject<HTMLVideoElement | null>, url: string, command: ShipPlaybackCommand, waitSeconds: number): PlaybackPlayerHandle {
  // waitSeconds only seeds the countdown: a change of it alone must not restart the playback.
  const waitRef = useRef(waitSeconds);
  useEffect(() => {
    waitRef.current = waitSeconds;
  }, [waitSeconds]);
  const [player, setPlayer] = useState<MsePlayer>();
  const [view, dispatch] = useReducer(reducer, undefined, initialPlayerView);
  const [position, setPosition] = useState<PlaybackPosition>();

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const instance = new MsePlayer(video, { url, reconnect: RECONNECT });
    for (const type of EVENTS) {
      instance.on(type, (payload: PlayerEventMap[typeof type]) =>
        dispatch({ kind: 'event', event: { type, payload } as PlayerEvent, now: performance.now() }),
      );
    }
    instance.on('position', setPosition);
    setPlayer(instance);
    return () => {
      instance.destroy();
      setPlayer(undefined);
    };
  }, [videoRef, url]);

  const replay = useCallback(() => {
    if (!player) return;
    dispatch({ kind: 'started', now: performance.now(), waitSeconds: waitRef.current });
    setPosition(undefined);
    player.play(command);
  }, [player, command]);

  useEffect(replay, [replay]);

  return {
    player,
    view,
    position,
    replay,
    pause: useCallback(() => player?.pause(), [player]),
    resume: useCallback(() => player?.resume(), [player]),
    seek: useCallback((time: number) => player?.seek(time), [player]),
    setSpeed: useCallback((speed: PlaybackSpeed) => player?.setSpeed(speed), [player]),
    continueWatching: useCallback(() => player?.continueWatching(), [player]),
  };
}
