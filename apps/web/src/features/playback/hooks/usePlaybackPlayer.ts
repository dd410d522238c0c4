import { useCallback, useEffect, useState, type RefObject } from 'react';
import type { MsePlayer, PlaybackPosition } from '@ship-cctv/player';
import type { PlaybackSpeed, ShipPlaybackCommand } from '@ship-cctv/protocol';
import type { PlayerView } from '../../../shared/player-cell/index.ts';
import { usePlayerCommand } from '../../../shared/player-cell/index.ts';

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
 * The React side of a ship-end playback: the live cells' player hook playing `command` whenever it
 * changes (a new range, camera or template from the options dialog), plus the position and controls.
 */
export function usePlaybackPlayer(videoRef: RefObject<HTMLVideoElement | null>, url: string, command: ShipPlaybackCommand, waitSeconds: number): PlaybackPlayerHandle {
  const { player, view, replay: playAgain } = usePlayerCommand(videoRef, url, command, waitSeconds);
  const [position, setPosition] = useState<PlaybackPosition>();

  useEffect(() => player?.on('position', setPosition), [player]);
  // A new command starts from nothing: no position of the previous range.
  useEffect(() => setPosition(undefined), [command]);

  const replay = useCallback(() => {
    setPosition(undefined);
    playAgain();
  }, [playAgain]);

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
