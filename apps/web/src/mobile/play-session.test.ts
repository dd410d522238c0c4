import { describe, expect, it } from 'vitest';
import { chooseLiveDefinition, isOpenOptionsState } from './play-session.ts';

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
