import { type BackfillDefinition, type DefinitionModel, type EncodeSpec, type ShipConfig, modelAt, smallerDefinition } from '@ship-cctv/protocol';
import { encodeSpec } from '../fleet/index.ts';

/** The definition backfill asks the ship for: a model of the ship's and its H.264 encoding. */
export interface AskedDefinition {
  model: DefinitionModel;
  encode: EncodeSpec;
}

/** The ship's model of that id, in any of its groups. */
function modelOf(config: ShipConfig, id: number): DefinitionModel | undefined {
  for (const g of config.groupAliasResDTOS) {
    const m = g.models.find((x) => x.id === id);
    if (m) return m;
  }
  return undefined;
}

/**
 * What a gap is refilled in, for a choice (BACKFILL_DEFINITIONS) and the template the shore
 * recording had before the gap: `recorded` that template; `lowest` and `satellite` the ship's
 * definition at that level (as the link policies pick it, in H.264), never above the recorded one;
 * undefined — the ship's own files, copied — for `ship`, or when the recorded template is no model
 * of the ship's any more and no level applies.
 */
export function askedDefinition(choice: BackfillDefinition, config: ShipConfig, recordedTemplateId: number): AskedDefinition | undefined {
  if (choice === 'ship') return undefined;
  const recorded = modelOf(config, recordedTemplateId);
  let model = recorded;
  if (choice !== 'recorded') {
    const level = modelAt(config, choice, { h264Only: true });
    if (level && !(recorded && smallerDefinition(recorded, level) < 0)) model = level;
  }
  return model && { model, encode: encodeSpec(model, 'h264') };
}

/** The choice that applies to a camera: its own, else its organisation's (its own or inherited), else `recorded`. */
export function backfillChoice(camera: BackfillDefinition | null, org: BackfillDefinition | null): BackfillDefinition {
  return camera ?? org ?? 'recorded';
}
