import { type RefObject, useCallback, useEffect, useState } from 'react';
import type { LivePlayer } from '@ship-cctv/player';
import { keepSessionVolume, sessionVolume } from './sound.ts';

/**
 * Mute and volume of a cell: starts muted, the volume kept for the session (sound.ts). Muted, the
 * player plays the stream picture-only (MsePlayer.setSound: no audio clock holding the picture
 * back); unmuting asks it for the sound, which starts the stream again with it.
 */
export function useCellSound(
  videoRef: RefObject<HTMLVideoElement | null>,
  player: LivePlayer | undefined,
): { muted: boolean; volume: number; toggle(): void; changeVolume(volume: number): void } {
  const [muted, setMuted] = useState(true);
  const [volume, setVolume] = useState(sessionVolume);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.volume = volume;
    video.muted = muted;
  }, [videoRef, muted, volume]);
  useEffect(() => player?.setSound(!muted), [player, muted]);
  // Muted again when the stream loses its sound (the control goes) and comes back.
  useEffect(
    () => () => {
      if (videoRef.current) videoRef.current.muted = true;
      player?.setSound(false);
    },
    [videoRef, player],
  );

  const toggle = useCallback(() => {
    setMuted((m) => !m);
    // The click is the gesture: a video the browser held back plays now, with its sound.
    void videoRef.current?.play().catch(() => undefined);
  }, [videoRef]);
  const changeVolume = useCallback((v: number) => {
    setVolume(v);
    keepSessionVolume(v);
  }, []);
  return { muted, volume, toggle, changeVolume };
}
