import { Type, type Static } from 'typebox';
import { DEFINITION_LEVELS, POLICY_LINKS } from '../link-policy-rules.ts';
import { BudgetPolicy } from './budget.ts';

/**
 * Per link type, which definition a live cell asks for (issue 19 items 2 and 4): a cell of a 9- or
 * 16-cell grid, of a 1- or 4-cell grid, and a cell shown full screen. An organisation's manager may
 * change them (`/api/v1/cctv/linkPolicy/…`); each organisation starts from LINK_POLICY_DEFAULTS.
 * The web app applies them as the ship's link changes (STOMP `/shipStatus/{shipName}`), so a ship
 * that leaves port 4G for FBB at sea asks for less without anyone touching it.
 */

const Level = (description: string) => Type.Enum(DEFINITION_LEVELS, { description });

export const LinkPolicyFields = {
  /** A cell of a 9- or 16-cell grid. */
  manyCells: Level('A cell of a 9- or 16-cell grid'),
  /** A cell of a 1- or 4-cell grid. */
  fewCells: Level('A cell of a 1- or 4-cell grid'),
  fullScreen: Level('A cell shown full screen'),
  /** Grid cells show a picture every stillsEverySeconds instead of video on this link (stills mode). */
  stills: Type.Boolean({ description: 'Grid cells show a picture refreshed every stillsEverySeconds instead of live video on this link (full screen plays video)' }),
  stillsEverySeconds: Type.Integer({ minimum: 1, maximum: 3600, description: 'Seconds between stills when stills is on' }),
};

/** What a used-up live budget does on this link, for ships whose budget follows the link type (policy `link`). */
const budgetPolicyDescription = "What new live views get once the ship's live budget is used up while on this link, for ships whose budget policy is `link`";

export const LinkPolicySchema = Type.Object({
  linkType: Type.Enum(POLICY_LINKS),
  ...LinkPolicyFields,
  budgetPolicy: Type.Unsafe<BudgetPolicy>({ ...BudgetPolicy, description: budgetPolicyDescription }),
  /** Whether the organisation or one above it changed this link type's policy (false: the defaults). */
  custom: Type.Boolean(),
  /** Whose policy it is: the organisation's own, one it inherits from an organisation above it, or the defaults. */
  source: Type.Union([Type.Literal('own'), Type.Literal('inherited'), Type.Literal('default')]),
  /** The organisation above whose policy this is, when `source` is `inherited`. */
  inheritedFrom: Type.Optional(Type.Object({ orgId: Type.String(), displayName: Type.String() })),
});
export type LinkPolicy = Static<typeof LinkPolicySchema>;

export const LinkPolicyList = Type.Object({
  orgId: Type.String(),
  policies: Type.Array(LinkPolicySchema),
  /** Whether this user may change the organisation's policies (a manager of it or of one above it). */
  canEdit: Type.Boolean(),
});
export type LinkPolicyList = Static<typeof LinkPolicyList>;

export const LinkPolicyParams = Type.Object({
  orgId: Type.String({ minLength: 1, maxLength: 64 }),
  linkType: Type.Enum(POLICY_LINKS),
});
export const LinkPolicyOrgParams = Type.Object({ orgId: Type.String({ minLength: 1, maxLength: 64 }) });

/** Left out, budgetPolicy stays as it was (clients from before it existed keep working). */
export const LinkPolicyUpdate = Type.Object({ ...LinkPolicyFields, budgetPolicy: Type.Optional(Type.Unsafe<BudgetPolicy>({ ...BudgetPolicy, description: budgetPolicyDescription })) }, { additionalProperties: false });
export type LinkPolicyUpdate = Static<typeof LinkPolicyUpdate>;

