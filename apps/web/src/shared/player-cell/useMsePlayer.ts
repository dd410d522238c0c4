import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type RefObject } from 'react';
import type { LivePlayer, MsePlayer, MsePlayerOptions, PlayerEventMap } from '@ship-cctv/player';
import type { PlayCommand, ShipPlaybackCommand } from '@ship-cctv/protocol';
import { initialPlayerView, reducePlayerEvent, startedView, type PlayerEvent, type PlayerView } from './player-view.ts';

/** Reconnect pacing for satellite links: quick first retry, then no faster than every 8 s. */
const RECONNECT = { minMs: 500, maxMs: 8000 };

type Action = { kind: 'event'; event: PlayerEvent; now: number } | { kind: 'started'; now: number; waitSeconds: number };

function reducer(view: PlayerView, action: Action): PlayerView {
  return action.kind === 'started' ? startedView(action.now, action.waitSeconds) : reducePlayerEvent(view, action.event, action.now);
}

const EVENTS = ['state', 'error', 'status', 'notice', 'codec', 'continued'] as const satisfies readonly (keyof PlayerEventMap)[];

export interface MsePlayerHandle<P extends LivePlayer = MsePlayer> {
  /** undefined before mount and after unmount. */
  player: P | undefined;
  view: PlayerView;
  /** Plays the same command again (after an error or an end). */
  replay(): void;
  /** Continue after the watching limit: the countdown banner goes at once (the player's `continued`, see continuedView). */
  continueWatching(): void;
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
  command: ShipPlaybackCommand | undefined,
  waitSeconds: number,
): MsePlayerHandle;
export function usePlayerCommand<P extends LivePlayer>(
  videoRef: RefObject<HTMLVideoElement | null>,
  url: string,
  command: PlayCommand | ShipPlaybackCommand | undefined,
  waitSeconds: number,
  /** Makes the player (may load its code first); default an MsePlayer. */
  create: PlayerFactory<P>,
): MsePlayerHandle<P>;
export function usePlayerCommand(
  videoRef: RefObject<HTMLVideoElement | null>,
  url: string,
  command: PlayCommand | ShipPlaybackCommand | undefined,
  waitSeconds: number,
  create: PlayerFactory<LivePlayer> = createMsePlayer,
): MsePlayerHandle<LivePlayer> {
  const waitRef = useRef(waitSeconds);
  useEffect(() => {
    waitRef.current = waitSeconds;
  }, [waitSeconds]);
  const [player, setPlayer] = useState<LivePlayer>();
  const [view, dispatch] = useReducer(reducer, undefined, initialPlayerView);
  const createRef = useRef(create);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let instance: LivePlayer | undefined;
    let gone = false;
    void Promise.resolve(createRef.current(video, { url, reconnect: RECONNECT })).then((made) => {
      if (gone) {
        made.destroy();
        return;
      }
      instance = made;
      for (const type of EVENTS) {
        made.on(type, (payload: PlayerEventMap[typeof type]) =>
          dispatch({ kind: 'event', event: { type, payload } as PlayerEvent, now: performance.now() }),
        );
      }
      setPlayer(made);
    });
    return () => {
      gone = true;
      instance?.destroy();
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

  const continueWatching = useCallback(() => player?.continueWatching(), [player]);

  return { player, view, replay, continueWatching };
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
  /** Makes the player: an MsePlayer unless told (the desktop cell passes createLivePlayer, live-player.ts). */
  create: PlayerFactory<LivePlayer> = createMsePlayer,
): MsePlayerHandle<LivePlayer> {
  const command = useMemo<PlayCommand | undefined>(
    () =>
      ready
        ? { type: 'play', mode: 'live', cameraId, ...(templateId === undefined ? {} : { templateId }), ...(carouselId === undefined ? {} : { carouselId }) }
        : undefined,
    [cameraId, templateId, carouselId, ready],
  );
  return usePlayerCommand(videoRef, url, command, waitSeconds, create);
}

/** Makes a player for a <video>: at once, or once its code is loaded. */
export type PlayerFactory<P extends LivePlayer> = (video: HTMLVideoElement, options: MsePlayerOptions) => P | Promise<P>;

/** An MsePlayer, its code loaded on first use (outside the first screen's JavaScript). */
const createMsePlayer: PlayerFactory<MsePlayer> = async (video, options) => {
  const { MsePlayer } = await import('@ship-cctv/player');
  return new MsePlayer(video, options);
};

