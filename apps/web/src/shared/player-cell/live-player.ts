import type { LivePlayer } from '@ship-cctv/player';
import { framePlayerSupported } from '@ship-cctv/player/supported';
import type { PlayerFactory } from './useMsePlayer.ts';

/**
 * A live cell's player, on the desktop and the phone: where the browser can decode and paint
 * frames itself (Chrome, Edge, Android Chrome), a FramePlayer — a jitter buffer of its own instead
 * of the media element's, for a picture both smooth and near the link's own delay
 * (packages/player/README.md, "Smoothness") — loaded on first use, outside the first screen's code
 * (as the MsePlayer is); elsewhere (Firefox, Safari), or with `?player=mse` in the address, an
 * MsePlayer.
 */
export const createLivePlayer: PlayerFactory<LivePlayer> = async (video, options) => {
  if (!framePlayerSupported() || new URLSearchParams(globalThis.location?.search).get('player') === 'mse') {
    const { MsePlayer } = await import('@ship-cctv/player');
    return new MsePlayer(video, options);
  }
  const { FramePlayer } = await import('@ship-cctv/player/frames');
  return new FramePlayer(video, options);
};
