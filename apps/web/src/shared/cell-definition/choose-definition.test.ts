import { describe, expect, it } from 'vitest';
import { LINK_POLICY_DEFAULTS, type ShipConfig } from '@ship-cctv/protocol';
import { chooseCellDefinition, modelAt } from './choose-definition.ts';

const model = (id: number, width: number, height: number, frameRate: number, bitrateKbps: number) => ({ id, displayName: `${width}×${height}`, width, height, frameRate, bitrateKbps, codec: 'h264' });

/** The demo's templates: 5 smallest, 6 the default, 7 largest — listed out of order on purpose. */
const config: ShipConfig = {
  groupAliasResDTOS: [
    { id: 1, displayName: '标准', defaultModelId: 6, models: [model(7, 1280, 720, 15, 1200), model(6, 640, 360, 10, 400), model(5, 320, 180, 5, 150)] },
    { id: 2, displayName: '其他', defaultModelId: 9, models: [model(9, 160, 90, 5, 50)] },
  ],
  defaultGroupId: 1,
  talk: false,
  audio: false,
};

/** The server answers every link type; an organisation that changed nothing gets the defaults. */
const DEFAULTS = LINK_POLICY_DEFAULTS;
const choose = (linkType: string, gridSize: number, fullScreen = false, explicit?: number) =>
  chooseCellDefinition({ config, policies: DEFAULTS, linkType, view: { gridSize, fullScreen }, explicit });

describe('chooseCellDefinition (issue 19 items 2 and 4)', () => {
  it('over 4G: the lowest in a 9- or 16-cell grid, the standard (ship default) in a 1- or 4-cell grid, the best full screen', () => {
    expect([16, 9, 4, 1].map((n) => choose('FOURTHG', n).templateId)).toEqual([5, 5, 6, 6]);
    expect(choose('FOURTHG', 16, true)).toEqual({ kind: 'policy', templateId: 7, level: 'best', because: 'fullScreen', link: 'FOURTHG', gridSize: 16 });
    expect(choose('FOURTHG', 16)).toMatchObject({ level: 'lowest', because: 'manyCells' });
    expect(choose('FOURTHG', 4)).toMatchObject({ level: 'standard', because: 'fewCells' });
  });

  it('over FBB and Iridium: the lowest in every grid, the standard only full screen', () => {
    for (const link of ['FBB', 'IRIDIUM', 'IRIDIUM1']) {
      expect([16, 9, 4, 1].map((n) => choose(link, n).templateId), link).toEqual([5, 5, 5, 5]);
      expect(choose(link, 1, true).templateId, link).toBe(6);
    }
    expect(choose('IRIDIUM1', 4)).toMatchObject({ link: 'IRIDIUM' });
  });

  it('over FBB and Iridium a ship with the satellite tier plays it in every grid, its AV1 one (shore sends it in H.264 where a viewer cannot decode AV1)', () => {
    const satellite: ShipConfig = {
      ...config,
      groupAliasResDTOS: [
        {
          ...config.groupAliasResDTOS[0]!,
          models: [...config.groupAliasResDTOS[0]!.models, model(11, 320, 180, 3, 32), { ...model(12, 320, 180, 3, 32), codec: 'av1' }],
        },
      ],
    };
    const pick = (linkType: string, gridSize: number, fullScreen = false) => chooseCellDefinition({ config: satellite, policies: DEFAULTS, linkType, view: { gridSize, fullScreen }, explicit: undefined });
    for (const link of ['FBB', 'IRIDIUM']) {
      expect([16, 9, 4, 1].map((n) => pick(link, n).templateId), link).toEqual([12, 12, 12, 12]);
      expect(pick(link, 4)).toMatchObject({ level: 'satellite', because: 'fewCells' });
      expect(pick(link, 1, true).templateId, link).toBe(6);
    }
    // Elsewhere the lowest stays the smallest definition above the tier.
    expect(pick('FOURTHG', 16)).toMatchObject({ level: 'lowest', templateId: 5 });
    expect(modelAt(satellite, 'lowest')?.id).toBe(5);
    // Without an AV1 one, the tier's H.264 one.
    const h264Only: ShipConfig = { ...satellite, groupAliasResDTOS: [{ ...satellite.groupAliasResDTOS[0]!, models: satellite.groupAliasResDTOS[0]!.models.filter((m) => m.id !== 12) }] };
    expect(modelAt(h264Only, 'satellite')?.id).toBe(11);
    // Without the tier at all, the lowest plays and the reason names the lowest.
    expect(choose('FBB', 16)).toMatchObject({ templateId: 5, level: 'lowest' });
  });

  it('reads FX as VSAT, and offline or unknown links by the DEFAULT policy', () => {
    expect(choose('FX', 4)).toMatchObject({ link: 'VSAT', templateId: 6 });
    expect(choose('OFFLINE', 16)).toMatchObject({ link: 'DEFAULT', templateId: 5 });
    expect(choose('LORA', 1, true)).toMatchObject({ link: 'DEFAULT', templateId: 7 });
  });

  it("follows the organisation's own policy for a link type over the defaults", () => {
    const policies = { ...DEFAULTS, FOURTHG: { ...DEFAULTS.FOURTHG, manyCells: 'standard', fullScreen: 'standard' } } as const;
    expect(chooseCellDefinition({ config, policies, linkType: 'FOURTHG', view: { gridSize: 16, fullScreen: false }, explicit: undefined }).templateId).toBe(6);
    expect(chooseCellDefinition({ config, policies, linkType: 'FOURTHG', view: { gridSize: 16, fullScreen: true }, explicit: undefined }).templateId).toBe(6);
    // Other link types keep the defaults.
    expect(chooseCellDefinition({ config, policies, linkType: 'VSAT', view: { gridSize: 16, fullScreen: false }, explicit: undefined }).templateId).toBe(5);
  });

  it("the operator's pick wins whatever the grid, screen and link", () => {
    for (const [link, n, full] of [['FBB', 16, false], ['FOURTHG', 1, true], ['IRIDIUM', 4, false]] as const) {
      expect(choose(link, n, full, 9)).toEqual({ kind: 'explicit', templateId: 9 });
    }
  });

  it('plays the ship default when the policies could not be loaded', () => {
    expect(chooseCellDefinition({ config, policies: {}, linkType: 'FBB', view: { gridSize: 16, fullScreen: false }, explicit: undefined })).toEqual({ kind: 'shipDefault', templateId: undefined });
  });

  it("asks for nothing in particular on a ship without a default group (the server says 无默认清晰度模板)", () => {
    expect(modelAt({ ...config, defaultGroupId: null }, 'lowest')).toBeUndefined();
    expect(chooseCellDefinition({ config: { ...config, defaultGroupId: 3 }, policies: DEFAULTS, linkType: 'FBB', view: { gridSize: 16, fullScreen: false }, explicit: undefined }).templateId).toBeUndefined();
  });
});
