import { Type, type Static } from 'typebox';
import type { LinkType } from '../constants.ts';

/**
 * Per link type, which definition a live cell asks for (issue 19 items 2 and 4): a cell of a 9- or
 * 16-cell grid, of a 1- or 4-cell grid, and a cell shown full screen. An organisation's manager may
 * change them (`/api/v1/cctv/linkPolicy/…`); each organisation starts from LINK_POLICY_DEFAULTS.
 * The web app applies them as the ship's link changes (STOMP `/shipStatus/{shipName}`), so a ship
 * that leaves port 4G for FBB at sea asks for less without anyone touching it.
 */

/** lowest: the smallest model of the ship's default group; standard: the ship's default model; best: the largest. */
export const DEFINITION_LEVELS = ['lowest', 'standard', 'best'] as const;
export type DefinitionLevel = (typeof DEFINITION_LEVELS)[number];

/** The link types that carry a policy of their own; every other link value reads as one of them (policyLinkOf). */
export const POLICY_LINKS = ['VSAT', 'FBB', 'FOURTHG', 'IRIDIUM', 'AUTO', 'DEFAULT'] as const;
export type PolicyLink = (typeof POLICY_LINKS)[number];

const Level = (description: string) => Type.Enum(DEFINITION_LEVELS, { description });

export const LinkPolicyFields = {
  /** A cell of a 9- or 16-cell grid. */
  manyCells: Level('A cell of a 9- or 16-cell grid'),
  /** A cell of a 1- or 4-cell grid. */
  fewCells: Level('A cell of a 1- or 4-cell grid'),
  fullScreen: Level('A cell shown full screen'),
  /** Stills instead of video on this link (carried for the stills mode; nothing uses it yet). */
  stills: Type.Boolean({ description: 'Show stills instead of video on this link (kept for the stills mode)' }),
  stillsEverySeconds: Type.Integer({ minimum: 1, maximum: 3600, description: 'Seconds between stills when stills is on' }),
};

export const LinkPolicySchema = Type.Object({
  linkType: Type.Enum(POLICY_LINKS),
  ...LinkPolicyFields,
  /** Whether the organisation changed this link type's policy (false: the defaults). */
  custom: Type.Boolean(),
});
export type LinkPolicy = Static<typeof LinkPolicySchema>;

export const LinkPolicyList = Type.Object({ orgId: Type.String(), policies: Type.Array(LinkPolicySchema) });
export type LinkPolicyList = Static<typeof LinkPolicyList>;

export const LinkPolicyParams = Type.Object({
  orgId: Type.String({ minLength: 1, maxLength: 64 }),
  linkType: Type.Enum(POLICY_LINKS),
});
export const LinkPolicyOrgParams = Type.Object({ orgId: Type.String({ minLength: 1, maxLength: 64 }) });

export const LinkPolicyUpdate = Type.Object(LinkPolicyFields, { additionalProperties: false });
export type LinkPolicyUpdate = Static<typeof LinkPolicyUpdate>;

/**
 * The defaults. Over 4G, LEO (AUTO) and VSAT a small cell needs little and a full-screen one gets
 * the best; over FleetBroadband (≈0.4 Mbit/s shared) and Iridium every grid asks for the lowest and
 * only full screen the standard; Iridium defaults to stills every 30 s (for the stills mode).
 */
export const LINK_POLICY_DEFAULTS: Readonly<Record<PolicyLink, LinkPolicyUpdate>> = {
  VSAT: { manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best', stills: false, stillsEverySeconds: 10 },
  FBB: { manyCells: 'lowest', fewCells: 'lowest', fullScreen: 'standard', stills: false, stillsEverySeconds: 10 },
  FOURTHG: { manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best', stills: false, stillsEverySeconds: 10 },
  IRIDIUM: { manyCells: 'lowest', fewCells: 'lowest', fullScreen: 'standard', stills: true, stillsEverySeconds: 30 },
  AUTO: { manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best', stills: false, stillsEverySeconds: 10 },
  DEFAULT: { manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best', stills: false, stillsEverySeconds: 10 },
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
export function levelFor(policy: Pick<LinkPolicyUpdate, 'manyCells' | 'fewCells' | 'fullScreen'>, view: CellView): { level: DefinitionLevel; because: 'fullScreen' | 'manyCells' | 'fewCells' } {
  if (view.fullScreen) return { level: policy.fullScreen, because: 'fullScreen' };
  return view.gridSize >= 9 ? { level: policy.manyCells, because: 'manyCells' } : { level: policy.fewCells, because: 'fewCells' };
}
