import { useCallback, useMemo, useRef } from 'react';
import { useRuntimeConfig } from '../../../shared/runtime-config.tsx';
import { useShipStatus } from '../../../lib/realtime/index.ts';
import { useNow } from '../../../shared/player-cell/index.ts';
import { mediaSocketUrl } from '../../../shared/player-cell/index.ts';
import { bannerFor, needsClock } from '../../../shared/player-cell/index.ts';
import { findTimeZone, toPlaybackCommand, type PlaybackOptions } from '../options.ts';
import { playbackOverlay } from '../playback-view.ts';
import { usePlaybackPlayer } from './usePlaybackPlayer.ts';

/** What a playback screen needs of the camera. */
export interface PlaybackScreenSource {
  cameraId: string;
  shipName: string;
  /** Seconds the ship may take to start (the countdown). */
  waitTime: number;
}

/**
 * A ship-end playback screen without its look (desktop and mobile share it): the <video> ref and
 * its player playing `options`, the overlay and banner of the view, the recorded time on screen
 * and the chosen zone. The clock ticks every `playingTickMs` while playing (the recorded time moves
 * with every frame), and every 500 ms for countdowns.
 */
export function usePlaybackScreen(source: PlaybackScreenSource, options: PlaybackOptions, playingTickMs = 500) {
  const { mediaPath } = useRuntimeConfig();
  const videoRef = useRef<HTMLVideoElement>(null);
  const url = mediaSocketUrl(mediaPath, window.location);
  const command = useMemo(() => toPlaybackCommand(source.cameraId, options), [source.cameraId, options]);
  const playback = usePlaybackPlayer(videoRef, url, command, source.waitTime);
  const { player, view, position } = playback;
  const { linkType } = useShipStatus(source.shipName);
  const zone = findTimeZone(options.timeZoneId);

  const playing = view.state === 'playing' && !position?.paused;
  const now = useNow(playing || needsClock(view, performance.now()), playing ? playingTickMs : 500);
  const overlay = playbackOverlay(view, now, linkType === 'OFFLINE');
  const banner = bannerFor(view, now);
  const shown = view.state === 'idle' ? undefined : (player?.recordedTime() ?? position?.time);
  // The browser refused to start muted video without a gesture: this tap is the gesture.
  const clickToPlay = useCallback(() => void videoRef.current?.play().catch(() => undefined), []);

  return { videoRef, playback, view, position, zone, overlay, banner, shown, clickToPlay };
}
