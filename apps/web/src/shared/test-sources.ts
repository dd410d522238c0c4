import type { PlayableSource } from './playable-source.ts';

/** A playable source for tests: camera `n` of ship `shipId`. */
export function source(n: number, shipId = 'S1001'): PlayableSource {
  const channel = `${shipId}-C${String(n).padStart(2, '0')}`;
  return {
    cameraId: `${channel}-1`,
    title: `Camera ${n}`,
    channelId: channel,
    shipId,
    shipName: `ship-${shipId}`,
    shipDisplayName: `SHIP ${shipId}`,
    orgId: 'blueocean',
    orgName: '蓝海航运',
    waitTime: 8,
    componentType: 'live',
  };
}

export function sources(count: number, shipId = 'S1001', from = 1): PlayableSource[] {
  return Array.from({ length: count }, (_, i) => source(from + i, shipId));
}
