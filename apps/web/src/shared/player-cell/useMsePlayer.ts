import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type RefObject } from 'react';
import { MsePlayer, type PlayerEventMap } from '@ship-cctv/player';
import type { PlayCommand, ShipPlaybackCommand } from '@ship-cctv/protocol';
import { initialPlayerView, reducePlayerEvent, startedView, type PlayerEvent, type PlayerView } from './player-view.ts';

/** Reconnect pacing for satellite links: quick first retry, then no faster than every 8 s. */
const RECONNECT = { minMs: 500, maxMs: 8000 };

type Action = { kind: 'event'; event: PlayerEvent; now: number } | { kind: 'started'; now: number; waitSeconds: number };

function reducer(view: PlayerView, action: Action): PlayerView {
  return action.kind === 'started' ? startedView(action.now, action.waitSeconds) : reducePlayerEvent(view, action.event, action.now);
}

const EVENTS = ['state', 'error', 'status', 'notice', 'codec'] as const satisfies readonly (keyof PlayerEventMap)[];

export interface MsePlayerHandle {
  /** undefined before mount and after unmount. */
  player: MsePlayer | undefined;
  view: PlayerView;
  /** Plays the same command again (after an error or an end). */
  replay(): void;
}

/**
 * The thin React side of MsePlayer: one player per <video> for the component's life, created on
 * mount and destroyed on unmount; `command` (live or ship-end playback) is played again whenever
 * it changes — keep it stable (useMemo). `waitSeconds` (the ship's expected wait) only seeds the
 * countdown: a change of it alone must not restart a stream.
 */
export function usePlayerCommand(
  videoRef: RefObject<HTMLVideoElement | null>,
  url: string,
  /** undefined: nothing to play yet (the cell is still deciding its definition). */
  command: PlayCommand | ShipPlaybackCommand | undefined,
  waitSeconds: number,
): MsePlayerHandle {
  const waitRef = useRef(waitSeconds);
  useEffect(() => {
    waitRef.current = waitSeconds;
  }, [waitSeconds]);
  const [player, setPlayer] = useState<MsePlayer>();
  const [view, dispatch] = useReducer(reducer, undefined, initialPlayerView);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const instance = new MsePlayer(video, { url, reconnect: RECONNECT });
    for (const type of EVENTS) {
      instance.on(type, (payload: PlayerEventMap[typeof type]) =>
        dispatch({ kind: 'event', event: { type, payload } as PlayerEvent, now: performance.now() }),
      );
    }
    setPlayer(instance);
    return () => {
      instance.destroy();
      setPlayer(undefined);
    };
  }, [videoRef, url]);

  const replay = useCallback(() => {
    if (!player) return;
    // Nothing to play any more (a surface such as stills covers the cell): the stream stops.
    if (!command) return void (player.state !== 'idle' && player.stop());
    dispatch({ kind: 'started', now: performance.now(), waitSeconds: waitRef.current });
    player.play(command);
  }, [player, command]);

  // A new player or command: (re)start the stream.
  useEffect(replay, [replay]);

  return { player, view, replay };
}

/**
 * A live cell: plays the camera again whenever it or the definition changes. `carouselId`: the
 * carousel the cell runs for (the server then applies no continuous-watching limit to it).
 */
export function useMsePlayer(
  videoRef: RefObject<HTMLVideoElement | null>,
  url: string,
  cameraId: string,
  templateId: number | undefined,
  waitSeconds: number,
  carouselId?: string,
  /** false: do not play yet (the definition is not decided: starting at another would cost the ship a stream). */
  ready = true,
): MsePlayerHandle {
  const command = useMemo<PlayCommand | undefined>(
    () =>
      ready
        ? { type: 'play', mode: 'live', cameraId, ...(templateId === undefined ? {} : { templateId }), ...(carouselId === undefined ? {} : { carouselId }) }
        : undefined,
    [cameraId, templateId, carouselId, ready],
  );
  return usePlayerCommand(videoRef, url, command, waitSeconds);
}
