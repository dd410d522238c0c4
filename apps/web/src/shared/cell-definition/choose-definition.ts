import type { TFunction } from 'i18next';
import {
  levelFor,
  modelAt,
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

const satelliteTier = (m: DefinitionModel) => m.bitrateKbps <= SATELLITE_TIER_MAX_KBPS;

export { modelAt };

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
