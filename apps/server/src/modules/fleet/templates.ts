import type { DefinitionModel, EncodeSpec, ShipConfig } from '@ship-cctv/protocol';

export type TemplateChoice =
  | { ok: true; requested: DefinitionModel; lowest: DefinitionModel }
  | { ok: false; error: 'noDefaultTemplate' | 'unknownTemplate' };

const pixelRate = (m: DefinitionModel) => m.width * m.height * m.frameRate;

/**
 * The definition model a stream is encoded at, and the lowest of its group (what a struggling
 * link falls back to). Without a template id the ship's default group's default model is used;
 * a ship without one gets `noDefaultTemplate` and nothing starts (spec §5).
 */
export function chooseTemplate(config: ShipConfig, templateId: number | undefined): TemplateChoice {
  const groups = config.groupAliasResDTOS.filter((g) => g.models.length > 0);
  let requested: DefinitionModel | undefined;
  let groupModels: DefinitionModel[] = [];
  if (templateId === undefined) {
    const group = groups.find((g) => g.id === config.defaultGroupId);
    requested = group?.models.find((m) => m.id === group.defaultModelId);
    if (!group || !requested) return { ok: false, error: 'noDefaultTemplate' };
    groupModels = group.models;
  } else {
    for (const g of groups) {
      const m = g.models.find((x) => x.id === templateId);
      if (m) {
        requested = m;
        groupModels = g.models;
        break;
      }
    }
    if (!requested) return { ok: false, error: 'unknownTemplate' };
  }
  const lowest = groupModels.reduce((a, b) => (pixelRate(b) < pixelRate(a) || (pixelRate(b) === pixelRate(a) && b.bitrateKbps < a.bitrateKbps) ? b : a));
  return { ok: true, requested, lowest };
}

export function encodeSpec(m: DefinitionModel): EncodeSpec {
  return { width: m.width, height: m.height, frameRate: m.frameRate, bitrateKbps: m.bitrateKbps, codec: 'h264' };
}
