import { type DefinitionModel, type EncodeSpec, type ShipConfig, type VideoCodec, SATELLITE_TIER_MAX_KBPS, isVideoCodec } from '@ship-cctv/protocol';

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
  return { ok: true, requested, lowest: fallbackFor(requested, lowestOf(groupModels)) };
}

/**
 * A struggling link never falls back to a heavier definition than the one asked: a satellite-tier
 * stream (below the group's lowest ordinary definition) stays where it is — falling "back" to the
 * lowest ordinary one would multiply what six such streams ask of an FBB link.
 */
function fallbackFor(requested: DefinitionModel, lowest: DefinitionModel): DefinitionModel {
  return lowest.bitrateKbps > requested.bitrateKbps || pixelRate(lowest) > pixelRate(requested) ? requested : lowest;
}

/**
 * What a struggling link (or a used-up budget) falls back to: the smallest definition above the
 * satellite tier, as before that tier existed — the satellite tier is chosen, by the link policy,
 * not fallen into. A group of satellite-tier definitions only falls back to its smallest.
 */
function lowestOf(models: readonly DefinitionModel[]): DefinitionModel {
  const above = models.filter((m) => !isSatelliteTier(m));
  return (above.length > 0 ? above : models).reduce((a, b) => (pixelRate(b) < pixelRate(a) || (pixelRate(b) === pixelRate(a) && b.bitrateKbps < a.bitrateKbps) ? b : a));
}

export const isSatelliteTier = (m: Pick<DefinitionModel, 'bitrateKbps'>): boolean => m.bitrateKbps <= SATELLITE_TIER_MAX_KBPS;

/** The codec a definition asks for: its `codec` when known, else H.264 (templates from before codecs). */
export function definitionCodec(m: Pick<DefinitionModel, 'codec'>): VideoCodec {
  return isVideoCodec(m.codec) ? m.codec : 'h264';
}

/** The encoder's request for a definition, in `codec` (H.264 unless told: playback and older paths stay H.264). */
export function encodeSpec(m: DefinitionModel, codec: VideoCodec = 'h264'): EncodeSpec {
  return { width: m.width, height: m.height, frameRate: m.frameRate, bitrateKbps: m.bitrateKbps, codec };
}
