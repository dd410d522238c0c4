import type { LinkType } from './constants.ts';
import type { BudgetPolicy } from './schemas/budget.ts';
import type { DefinitionModel, ShipConfig } from './schemas/fleet.ts';
import { SATELLITE_TIER_MAX_KBPS } from './video-codecs.ts';

/**
 * Which definition a live cell asks for per link type (issue 19 items 2 and 4), without the REST
 * schemas (schemas/link-policy.ts): the web app's play grid reads these, and keeps no TypeBox
 * schema in its first screen for them.
 */

/**
 * satellite: the ship's default group's satellite-tier model (≤ SATELLITE_TIER_MAX_KBPS; its AV1
 * one where there is one, which shore sends in H.264 to viewers that cannot decode AV1), or the
 * lowest where the group has none; lowest: the smallest model above that tier; standard: the
 * ship's default model; best: the largest. In this order, smallest first.
 */
export const DEFINITION_LEVELS = ['satellite', 'lowest', 'standard', 'best'] as const;
export type DefinitionLevel = (typeof DEFINITION_LEVELS)[number];

/** The link types that carry a policy of their own; every other link value reads as one of them (policyLinkOf). */
export const POLICY_LINKS = ['VSAT', 'FBB', 'FOURTHG', 'IRIDIUM', 'AUTO', 'DEFAULT'] as const;
export type PolicyLink = (typeof POLICY_LINKS)[number];

/** One link type's policy (the REST schema LinkPolicyUpdate checks the same shape). */
export interface LinkPolicyRule {
  manyCells: DefinitionLevel;
  fewCells: DefinitionLevel;
  fullScreen: DefinitionLevel;
  stills: boolean;
  stillsEverySeconds: number;
  /**
   * What new live views get once the ship's live budget is used up while it is on this link, for a
   * ship whose budget says to follow its link type (budget policy `link`).
   */
  budgetPolicy: BudgetPolicy;
}

/**
 * The defaults. Over 4G, LEO (AUTO) and VSAT a small cell needs little and a full-screen one gets
 * the best; over FleetBroadband (≈0.4 Mbit/s shared) and Iridium every grid asks for the satellite
 * tier (≤ 32 kbit/s: six cameras fit in what one lowest-definition stream took before) and only full
 * screen the standard; on Iridium grid cells show stills every 30 s instead of video.
 * A used-up live budget keeps the lowest definition where a megabyte is cheap enough for it, and
 * pictures only over FleetBroadband and Iridium, where one hour of the lowest definition costs
 * what a day of stills does.
 */
export const LINK_POLICY_DEFAULTS: Readonly<Record<PolicyLink, LinkPolicyRule>> = {
  VSAT: { manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best', stills: false, stillsEverySeconds: 10, budgetPolicy: 'lowest' },
  FBB: { manyCells: 'satellite', fewCells: 'satellite', fullScreen: 'standard', stills: false, stillsEverySeconds: 10, budgetPolicy: 'stills' },
  FOURTHG: { manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best', stills: false, stillsEverySeconds: 10, budgetPolicy: 'lowest' },
  IRIDIUM: { manyCells: 'satellite', fewCells: 'satellite', fullScreen: 'standard', stills: true, stillsEverySeconds: 30, budgetPolicy: 'stills' },
  AUTO: { manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best', stills: false, stillsEverySeconds: 10, budgetPolicy: 'lowest' },
  DEFAULT: { manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best', stills: false, stillsEverySeconds: 10, budgetPolicy: 'lowest' },
};

/**
 * The policy a ship's link value follows: IRIDIUM1 is Iridium, FX (Fleet Xpress: Ka-band VSAT)
 * is VSAT; OFFLINE, UNKNOWN and anything unknown follow DEFAULT.
 */
export function policyLinkOf(linkType: LinkType | string): PolicyLink {
  switch (linkType) {
    case 'IRIDIUM1':
      return 'IRIDIUM';
    case 'FX':
      return 'VSAT';
    default:
      return (POLICY_LINKS as readonly string[]).includes(linkType) ? (linkType as PolicyLink) : 'DEFAULT';
  }
}

/** How a cell is shown: its grid's size and whether it is full screen. */
export interface CellView {
  gridSize: number;
  fullScreen: boolean;
}

/** Which of the policy's levels a cell view uses, and why (`fullScreen`, `manyCells` or `fewCells`). */
export function levelFor(policy: Pick<LinkPolicyRule, 'manyCells' | 'fewCells' | 'fullScreen'>, view: CellView): { level: DefinitionLevel; because: 'fullScreen' | 'manyCells' | 'fewCells' } {
  if (view.fullScreen) return { level: policy.fullScreen, because: 'fullScreen' };
  return view.gridSize >= 9 ? { level: policy.manyCells, because: 'manyCells' } : { level: policy.fewCells, because: 'fewCells' };
}

const pixelRate = (m: DefinitionModel) => m.width * m.height * m.frameRate;
/** Smaller first: fewer pixels a second, then fewer bits. */
export const smallerDefinition = (a: DefinitionModel, b: DefinitionModel): number => pixelRate(a) - pixelRate(b) || a.bitrateKbps - b.bitrateKbps;

const satelliteTier = (m: DefinitionModel) => m.bitrateKbps <= SATELLITE_TIER_MAX_KBPS;

/**
 * The model of the ship's default group at a level: its satellite-tier one (AV1 first, unless
 * `h264Only`: shore sends it in H.264 to a viewer that cannot decode AV1), its smallest above that
 * tier, its default (the ship's "standard"), or its largest. A group without a satellite tier gives
 * its lowest for it. undefined when the ship has no default group with a default model.
 */
export function modelAt(config: ShipConfig, level: DefinitionLevel, opts: { h264Only?: boolean } = {}): DefinitionModel | undefined {
  const group = config.groupAliasResDTOS.find((g) => g.id === config.defaultGroupId && g.models.length > 0);
  const standard = group?.models.find((m) => m.id === group.defaultModelId);
  if (!group || !standard) return undefined;
  const sorted = [...group.models].sort(smallerDefinition);
  const above = sorted.filter((m) => !satelliteTier(m));
  const lowest = above[0] ?? sorted[0];
  if (level === 'satellite') {
    const tier = sorted.filter(satelliteTier);
    return (opts.h264Only ? tier.find((m) => m.codec !== 'av1') : tier.find((m) => m.codec === 'av1')) ?? tier[0] ?? lowest;
  }
  if (level === 'lowest') return lowest;
  if (level === 'best') return sorted[sorted.length - 1];
  return standard;
}
