import type { TFunction } from 'i18next';
import {
  levelFor,
  policyLinkOf,
  type CellView,
  type DefinitionLevel,
  type DefinitionModel,
  type LinkPolicyUpdate,
  type PolicyLink,
  type ShipConfig,
  SATELLITE_TIER_MAX_KBPS,
} from '@ship-cctv/protocol';

export type { CellView };

/** Why a cell plays the definition it plays. */
export type CellDefinition =
  /** The operator picked it in this cell: it sticks until the cell gets another channel. */
  | { kind: 'explicit'; templateId: number }
  /** The link policy's choice for this view (templateId undefined: the ship has no default group; the server says so). */
  | { kind: 'policy'; templateId: number | undefined; level: DefinitionLevel; because: 'fullScreen' | 'manyCells' | 'fewCells'; link: PolicyLink; gridSize: number }
  /** No policy known for the link (the policies could not be loaded): the ship's default, as before policies. */
  | { kind: 'shipDefault'; templateId: undefined };

export interface CellDefinitionInput {
  /** The ship's definition templates (spec §3 Config). */
  config: ShipConfig;
  /** The organisation's policies by link type, as the server answers them (every link type). */
  policies: Partial<Record<PolicyLink, LinkPolicyUpdate>>;
  /** The ship's link as its status says (any value; see policyLinkOf). */
  linkType: string;
  view: CellView;
  /** The operator's own pick in this cell, if any. */
  explicit: number | undefined;
}

const pixelRate = (m: DefinitionModel) => m.width * m.height * m.frameRate;
/** Smaller first: fewer pixels a second, then fewer bits. */
const smaller = (a: DefinitionModel, b: DefinitionModel) => pixelRate(a) - pixelRate(b) || a.bitrateKbps - b.bitrateKbps;

const satelliteTier = (m: DefinitionModel) => m.bitrateKbps <= SATELLITE_TIER_MAX_KBPS;

/**
 * The model of the ship's default group at a level: its satellite-tier one (AV1 first: shore sends
 * it in H.264 to a viewer that cannot decode AV1), its smallest above that tier, its default (the
 * ship's "standard"), or its largest. A group without a satellite tier gives its lowest for it.
 * undefined when the ship has no default group with a default model — the cell then asks for
 * nothing in particular and the server answers 无默认清晰度模板 (spec §5).
 */
export function modelAt(config: ShipConfig, level: DefinitionLevel): DefinitionModel | undefined {
  const group = config.groupAliasResDTOS.find((g) => g.id === config.defaultGroupId && g.models.length > 0);
  const standard = group?.models.find((m) => m.id === group.defaultModelId);
  if (!group || !standard) return undefined;
  const sorted = [...group.models].sort(smaller);
  const above = sorted.filter((m) => !satelliteTier(m));
  const lowest = above[0] ?? sorted[0];
  if (level === 'satellite') {
    const tier = sorted.filter(satelliteTier);
    return tier.find((m) => m.codec === 'av1') ?? tier[0] ?? lowest;
  }
  if (level === 'lowest') return lowest;
  if (level === 'best') return sorted[sorted.length - 1];
  return standard;
}

/**
 * Which definition a live cell asks for (issue 19 item 2): the operator's pick if any; otherwise
 * what the organisation's policy for the ship's link says for the cell's view — a 9- or 16-cell
 * grid, a 1- or 4-cell grid, or full screen (by default the lowest, the standard, the best).
 */
export function chooseCellDefinition({ config, policies, linkType, view, explicit }: CellDefinitionInput): CellDefinition {
  if (explicit !== undefined) return { kind: 'explicit', templateId: explicit };
  const link = policyLinkOf(linkType);
  const policy = policies[link];
  if (!policy) return { kind: 'shipDefault', templateId: undefined };
  const asked = levelFor(policy, view);
  // A ship whose templates have no satellite tier plays its lowest for it, and the reason says so.
  const model = modelAt(config, asked.level);
  const level = asked.level === 'satellite' && model && !satelliteTier(model) ? 'lowest' : asked.level;
  return { kind: 'policy', templateId: model?.id, level, because: asked.because, link, gridSize: view.gridSize };
}

/** A policy's choice in words, in the page's language: "Lowest resolution: FBB link, 16-cell grid" / "最低清晰度：FBB 链路，16 分屏". */
export function reasonFor(choice: Extract<CellDefinition, { kind: 'policy' }>, t: TFunction): string {
  return t('cellDefinition.reason', {
    level: t(`cellDefinition.level.${choice.level}`),
    link: t(`cellDefinition.link.${choice.link}`),
    view: choice.because === 'fullScreen' ? t('cellDefinition.view.fullScreen') : t('cellDefinition.view.grid', { count: choice.gridSize }),
  });
}
