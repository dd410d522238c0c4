import { describe, expect, it } from 'vitest';
import type { DefinitionModel, ShipConfig } from '@ship-cctv/protocol';
import { definitionChoices, definitionName } from './ship-config.ts';

const model = (id: number): DefinitionModel => ({ id, displayName: `M${id}`, width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' });

function config(defaultGroupId: number | null): ShipConfig {
  return {
    groupAliasResDTOS: [
      { id: 1, displayName: 'Standard', defaultModelId: 6, models: [model(5), model(6)] },
      { id: 3, displayName: 'Legacy', defaultModelId: null, models: [] },
    ],
    defaultGroupId,
    talk: false,
    audio: false,
  };
}

describe('definitionChoices', () => {
  it('lists the models of groups that have some, and the default model', () => {
    const { choices, defaultModelId } = definitionChoices(config(1));
    expect(choices.map((c) => c.model.id)).toEqual([5, 6]);
    expect(defaultModelId).toBe(6);
  });

  it('has no default when the ship has no default group (无默认清晰度模板)', () => {
    expect(definitionChoices(config(null)).defaultModelId).toBeUndefined();
  });

  it('has no default when the default group is one without models', () => {
    expect(definitionChoices(config(3)).defaultModelId).toBeUndefined();
  });
});

describe('definitionName', () => {
  it('is the Chinese displayName in Chinese, the English name in English when known', () => {
    const named = { displayName: '标清 640×360', displayNameEn: 'Standard 640×360' };
    expect(definitionName(named, 'zh-CN')).toBe('标清 640×360');
    expect(definitionName(named, 'en')).toBe('Standard 640×360');
    expect(definitionName({ displayName: '自定义' }, 'en')).toBe('自定义');
  });
});
