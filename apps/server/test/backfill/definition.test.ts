import { describe, expect, it } from 'vitest';
import type { DefinitionModel, ShipConfig } from '@ship-cctv/protocol';
import { askedDefinition, backfillChoice } from '../../src/modules/backfill/definition.ts';

const model = (id: number, width: number, height: number, frameRate: number, bitrateKbps: number, codec = 'h264'): DefinitionModel => ({ id, displayName: `m${id}`, width, height, frameRate, bitrateKbps, codec });
const config: ShipConfig = {
  defaultGroupId: 1,
  talk: false,
  audio: false,
  groupAliasResDTOS: [
    { id: 1, displayName: 'g', defaultModelId: 6, models: [model(5, 320, 180, 5, 150), model(6, 640, 360, 10, 400), model(7, 1280, 720, 15, 1200), model(12, 320, 180, 3, 32, 'av1'), model(11, 320, 180, 3, 32)] },
    { id: 2, displayName: 'other', defaultModelId: 20, models: [model(20, 160, 90, 5, 80)] },
  ],
};

describe('the definition backfill asks the ship for', () => {
  it('is the shore recording’s template by default, the level’s model when lower, and nothing for the ship’s own files', () => {
    expect(askedDefinition('recorded', config, 7)).toEqual({ model: model(7, 1280, 720, 15, 1200), encode: { width: 1280, height: 720, frameRate: 15, bitrateKbps: 1200, codec: 'h264' } });
    expect(askedDefinition('lowest', config, 7)?.model.id).toBe(5);
    // The satellite tier in H.264, though live would take its AV1 model.
    expect(askedDefinition('satellite', config, 6)?.model.id).toBe(11);
    expect(askedDefinition('satellite', config, 6)?.encode.codec).toBe('h264');
    expect(askedDefinition('ship', config, 6)).toBeUndefined();
  });

  it('never asks above what the shore recorded, and copies when it no longer knows what that was', () => {
    // Recorded in another group's 160×90: `lowest` (320×180) would be higher.
    expect(askedDefinition('lowest', config, 20)?.model.id).toBe(20);
    expect(askedDefinition('recorded', config, 99)).toBeUndefined();
    expect(askedDefinition('lowest', config, 99)?.model.id).toBe(5);
    // A ship without a default group has no levels: what was recorded.
    expect(askedDefinition('satellite', { ...config, defaultGroupId: null }, 6)?.model.id).toBe(6);
  });

  it('follows the camera’s own choice, else its organisation’s, else the recorded one', () => {
    expect(backfillChoice('ship', 'lowest')).toBe('ship');
    expect(backfillChoice(null, 'lowest')).toBe('lowest');
    expect(backfillChoice(null, null)).toBe('recorded');
  });
});
