import { describe, expect, it } from 'vitest';
import { chooseLiveDefinition, isOpenOptionsState, isPlayNowState } from './play-session.ts';

describe('live definition choice (spec §5: no default template, nothing starts)', () => {
  it('plays the picked definition', () => {
    expect(chooseLiveDefinition({ picked: 8, defaultModelId: 7, configKnown: true })).toEqual({ kind: 'play', templateId: 8 });
  });

  it('plays the default as the server’s default', () => {
    expect(chooseLiveDefinition({ picked: undefined, defaultModelId: 7, configKnown: true })).toEqual({ kind: 'play', templateId: undefined });
    expect(chooseLiveDefinition({ picked: 7, defaultModelId: 7, configKnown: true })).toEqual({ kind: 'play', templateId: undefined });
  });

  it('refuses without a default and without a pick', () => {
    expect(chooseLiveDefinition({ picked: undefined, defaultModelId: undefined, configKnown: true })).toEqual({ kind: 'refuse', reason: 'noDefaultTemplate' });
    expect(chooseLiveDefinition({ picked: 9, defaultModelId: undefined, configKnown: true })).toEqual({ kind: 'play', templateId: 9 });
  });

  it('leaves it to the server when the templates could not be read', () => {
    expect(chooseLiveDefinition({ picked: undefined, defaultModelId: undefined, configKnown: false })).toEqual({ kind: 'play', templateId: undefined });
  });
});

describe('a choice carried to the other tab', () => {
  it('is recognised only in its own shape', () => {
    expect(isOpenOptionsState({ openOptions: { mode: 'shipPlayback', source: { cameraId: 'C1-1' } } })).toBe(true);
    expect(isOpenOptionsState({ openOptions: { mode: 'other', source: { cameraId: 'C1-1' } } })).toBe(false);
    expect(isOpenOptionsState(null)).toBe(false);
    expect(isOpenOptionsState({ idx: 1 })).toBe(false);
  });
});

describe('playing an event moment carried from the events tab', () => {
  const source = { cameraId: 'C1-1', title: 'Bridge', channelId: 'C1', shipId: 'S1', shipName: '蓝海之星', shipDisplayName: 'BLUE OCEAN STAR 蓝海之星', orgId: 'blueocean', orgName: '蓝海航运', waitTime: 8, componentType: 'live' as const };
  const options = { timeZoneId: 'China Standard Time', start: 1_000, end: 61_000, speed: 1 as const, template: undefined };

  it('plays a camera and range from the route state, and nothing else', () => {
    expect(isPlayNowState({ playNow: { source, options } })).toBe(true);
    expect(isPlayNowState({ openOptions: { mode: 'shipPlayback', source } })).toBe(false);
    expect(isPlayNowState({ playNow: { source, options: { ...options, end: undefined } } })).toBe(false);
    expect(isPlayNowState(null)).toBe(false);
  });
});
