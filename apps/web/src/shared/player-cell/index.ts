/**
 * One live channel in a cell: the player (useMsePlayer over @ship-cctv/player), its overlay and
 * banner, definition picker, stats, fullscreen, and the slot where features add controls
 * (cell-controls.tsx: PTZ, talk). The live grid, the carousel and the mobile screens use it.
 */
export * from './cell-controls.tsx';
export * from './media-url.ts';
export * from './PlayerCell.tsx';
export * from './player-view.ts';
export * from './ship-config.ts';
export * from './sound.ts';
export * from './useCellSound.ts';
export { SoundIcon } from './icons.tsx';
export * from './useMsePlayer.ts';
export { createLivePlayer } from './live-player.ts';
export * from './useNow.ts';
