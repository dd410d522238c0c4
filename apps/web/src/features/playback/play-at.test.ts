import { describe, expect, it } from 'vitest';
import { isPlayAtState } from './play-at.ts';

const source = { cameraId: 'C1-1', title: 'Bridge', shipId: 'S1', shipName: '蓝海之星', shipDisplayName: 'BLUE OCEAN STAR 蓝海之星', orgId: 'blueocean', shipTimeZone: 'Asia/Shanghai', waitTime: 8 };
const options = { timeZoneId: 'China Standard Time', start: 1_000, end: 61_000, speed: 1 as const, template: undefined };

describe('ship playback asked for by another screen', () => {
  it('takes a camera and a range carried in the route state', () => {
    expect(isPlayAtState({ playAt: { source, options } })).toBe(true);
  });

  it('ignores any other state', () => {
    for (const state of [null, undefined, {}, { openOptions: { source } }, { playAt: { source } }, { playAt: { source: {}, options } }, { playAt: { source, options: { ...options, start: '1' } } }]) {
      expect(isPlayAtState(state)).toBe(false);
    }
  });
});
