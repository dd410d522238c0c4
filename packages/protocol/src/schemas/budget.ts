import { type Static, Type } from 'typebox';
import { POLICY_LINKS, type PolicyLink } from '../link-policy-rules.ts';

/**
 * What a budget counts: the link's bytes (both directions) of live video, ship-end playback,
 * pictures, backfill (the ship's recorded segments refilling gaps in shore's recording), and
 * events (the records and best pictures of what the ship's analysis found).
 */
export const BUDGET_PURPOSES = ['live', 'playback', 'pictures', 'backfill', 'events'] as const;
export type BudgetPurpose = (typeof BUDGET_PURPOSES)[number];

/**
 * What happens to new live views once a ship's live budget is used up: `lowest` streams only the
 * lowest definition of the group, `stills` refuses live video (pictures only), `block` refuses new
 * live views unless an operator overrides with a reason (logged).
 */
export const BUDGET_POLICIES = ['lowest', 'stills', 'block'] as const;
export const BudgetPolicy = Type.Union([Type.Literal('lowest'), Type.Literal('stills'), Type.Literal('block')]);
export type BudgetPolicy = (typeof BUDGET_POLICIES)[number];

/**
 * What a budget setting says about 100 %: one of the policies, or `link` — whatever the policy of
 * the link the ship is on says (the link-policy screen; FBB and Iridium: stills, others: lowest),
 * so a ship that leaves port 4G for FBB at sea changes without anyone touching it.
 */
export const BUDGET_POLICY_CHOICES = ['link', ...BUDGET_POLICIES] as const;
export const BudgetPolicyChoice = Type.Union([Type.Literal('link'), Type.Literal('lowest'), Type.Literal('stills'), Type.Literal('block')]);
export type BudgetPolicyChoice = (typeof BUDGET_POLICY_CHOICES)[number];

/**
 * Megabytes (10^6 bytes) per period, more than 0; left out: no cap. Fractions allowed (a test's
 * tiny cap). Not nullable: the server coerces types, and 0 would silently become null (no cap).
 */
const Megabytes = Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000 }));
export const PurposeCap = Type.Object({ dayMb: Megabytes, monthMb: Megabytes }, { additionalProperties: false });
export type PurposeCap = Static<typeof PurposeCap>;
/**
 * `backfill` may be left out (settings saved before it existed, older clients): then the server's
 * default day cap applies. `events` may be left out too: then events have no cap.
 */
export const BudgetCaps = Type.Object(
  { live: PurposeCap, playback: PurposeCap, pictures: PurposeCap, backfill: Type.Optional(PurposeCap), events: Type.Optional(PurposeCap) },
  { additionalProperties: false },
);
export type BudgetCaps = Static<typeof BudgetCaps>;

/** An administrator sets an organisation's default (no shipId) or one ship's own budget. */
export const DataBudgetUpdate = Type.Object(
  {
    orgId: Type.String({ minLength: 1, maxLength: 64 }),
    shipId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    policy: BudgetPolicyChoice,
    caps: BudgetCaps,
  },
  { additionalProperties: false },
);
export type DataBudgetUpdate = Static<typeof DataBudgetUpdate>;

/** Removes a ship's own budget (it follows its organisation's default again) or an organisation's default. */
export const DataBudgetDelete = Type.Object(
  { orgId: Type.String({ minLength: 1, maxLength: 64 }), shipId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
);
export type DataBudgetDelete = Static<typeof DataBudgetDelete>;

export const DataBudgetSetting = Type.Object({
  orgId: Type.String(),
  /** Absent: the organisation's default. */
  shipId: Type.Optional(Type.String()),
  policy: BudgetPolicyChoice,
  caps: BudgetCaps,
  updatedBy: Type.String(),
  updatedAt: Type.Integer(),
});
export type DataBudgetSetting = Static<typeof DataBudgetSetting>;

const PurposeUse = Type.Object({
  /** Bytes today / this month (the ship's calendar). */
  dayBytes: Type.Integer(),
  monthBytes: Type.Integer(),
  /** Caps in bytes; null: none. */
  dayCapBytes: Type.Union([Type.Integer(), Type.Null()]),
  monthCapBytes: Type.Union([Type.Integer(), Type.Null()]),
  /** 0 below 80 %, 80 from 80 %, 100 once a cap is reached (the higher of day and month). */
  level: Type.Union([Type.Literal(0), Type.Literal(80), Type.Literal(100)]),
});
export type PurposeUse = Static<typeof PurposeUse>;

/** What live requests of a ship get now: `normal`, or the policy in force (`override`: blocked, but this user overrode). */
export const LiveBudgetState = Type.Union([Type.Literal('normal'), BudgetPolicy, Type.Literal('override')]);
export type LiveBudgetState = Static<typeof LiveBudgetState>;

export const ShipBudgetUse = Type.Object({
  shipId: Type.String(),
  shipName: Type.String(),
  orgId: Type.String(),
  timeZone: Type.String(),
  /** The ship's day (YYYY-MM-DD) and month (YYYY-MM) the figures are of. */
  day: Type.String(),
  month: Type.String(),
  /** Whose budget applies: the ship's own, an organisation's default (`org`), or none. */
  source: Type.Union([Type.Literal('ship'), Type.Literal('org'), Type.Literal('none')]),
  /** The organisation whose default applies (source `org`). */
  sourceOrgId: Type.Optional(Type.String()),
  /** The policy that applies at 100 % now (null: no budget). */
  policy: Type.Union([BudgetPolicy, Type.Null()]),
  /** The budget's own choice: a policy, or `link` (then `policy` is the current link's). */
  policyChoice: Type.Union([BudgetPolicyChoice, Type.Null()]),
  /** The link type whose policy `policy` is, when the budget follows the link type. */
  policyLink: Type.Optional(Type.Enum(POLICY_LINKS)),
  use: Type.Object({ live: PurposeUse, playback: PurposeUse, pictures: PurposeUse, backfill: PurposeUse, events: PurposeUse }),
  live: LiveBudgetState,
  /** Until when this user's override of a block holds (epoch ms). */
  overrideUntil: Type.Optional(Type.Integer()),
});
export type ShipBudgetUse = Static<typeof ShipBudgetUse>;

export const DataBudgetStatistics = Type.Object({
  orgId: Type.String(),
  /** The organisation's own default and those of the organisations above it that apply, nearest first. */
  defaults: Type.Array(DataBudgetSetting),
  ships: Type.Array(ShipBudgetUse),
  /** Whether this user may change budgets of the organisation (a manager of it or above). */
  canEdit: Type.Boolean(),
});
export type DataBudgetStatistics = Static<typeof DataBudgetStatistics>;

export const DataBudgetShipQuery = Type.Object({ ships: Type.Optional(Type.String({ maxLength: 4096 })) });

/** Lets this user start live views of a ship past a `block` budget until the end of the ship's day. */
export const BudgetOverrideRequest = Type.Object(
  {
    shipId: Type.String({ minLength: 1, maxLength: 64 }),
    /** Why (logged with who and when). */
    reason: Type.String({ minLength: 3, maxLength: 500, pattern: '\\S' }),
  },
  { additionalProperties: false },
);
export type BudgetOverrideRequest = Static<typeof BudgetOverrideRequest>;

export const BudgetOverride = Type.Object({
  id: Type.Integer(),
  shipId: Type.String(),
  shipName: Type.String(),
  orgId: Type.String(),
  userId: Type.String(),
  username: Type.String(),
  reason: Type.String(),
  createdAt: Type.Integer(),
  validUntil: Type.Integer(),
});
export type BudgetOverride = Static<typeof BudgetOverride>;

/** `/budget/{shipName}` message: a ship's budget reached 80 % or 100 % of a cap (once per period and level). */
export interface BudgetNoticeMessage {
  shipId: string;
  shipName: string;
  purpose: BudgetPurpose;
  period: 'day' | 'month';
  /** YYYY-MM-DD or YYYY-MM of the ship's calendar. */
  periodKey: string;
  level: 80 | 100;
  usedBytes: number;
  capBytes: number;
  /** The policy that applies to live views at 100 %. */
  policy: BudgetPolicy;
  /** The link type whose policy that is, when the ship's budget follows its link type. */
  policyLink?: PolicyLink;
}
