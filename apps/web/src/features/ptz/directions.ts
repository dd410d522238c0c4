import type { PtzSpeeds } from './api/ptz.ts';

/** The pad's controls: where each sits in a 3×3 grid and the speeds it sends while held. */
export interface PadControl {
  key: 'upLeft' | 'up' | 'upRight' | 'left' | 'right' | 'downLeft' | 'down' | 'downRight' | 'zoomIn' | 'zoomOut';
  speeds: PtzSpeeds;
}

/** Full speed: the synthetic camera crosses its pannable range in ~2.5 s; real cameras scale it themselves. */
const S = 1;

export const DIRECTIONS: readonly (PadControl | undefined)[] = [
  { key: 'upLeft', speeds: { pan: -S, tilt: S, zoom: 0 } },
  { key: 'up', speeds: { pan: 0, tilt: S, zoom: 0 } },
  { key: 'upRight', speeds: { pan: S, tilt: S, zoom: 0 } },
  { key: 'left', speeds: { pan: -S, tilt: 0, zoom: 0 } },
  undefined,
  { key: 'right', speeds: { pan: S, tilt: 0, zoom: 0 } },
  { key: 'downLeft', speeds: { pan: -S, tilt: -S, zoom: 0 } },
  { key: 'down', speeds: { pan: 0, tilt: -S, zoom: 0 } },
  { key: 'downRight', speeds: { pan: S, tilt: -S, zoom: 0 } },
];

export const ZOOMS: readonly PadControl[] = [
  { key: 'zoomIn', speeds: { pan: 0, tilt: 0, zoom: S } },
  { key: 'zoomOut', speeds: { pan: 0, tilt: 0, zoom: -S } },
];

/** The arrow each direction shows. */
export const ARROWS: Record<PadControl['key'], string> = {
  upLeft: '↖',
  up: '↑',
  upRight: '↗',
  left: '←',
  right: '→',
  downLeft: '↙',
  down: '↓',
  downRight: '↘',
  zoomIn: '+',
  zoomOut: '−',
};
