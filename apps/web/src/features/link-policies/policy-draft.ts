import { type BudgetPolicy, DEFINITION_LEVELS, type DefinitionLevel, type LinkPolicy, type LinkPolicyUpdate } from '@ship-cctv/protocol';

/**
 * A row of the link-policy screen being edited: the policy's fields, with the seconds empty while
 * the operator clears the box. Pure rules, so the screen only draws them.
 */
export interface PolicyDraft extends Omit<LinkPolicyUpdate, 'stillsEverySeconds' | 'budgetPolicy'> {
  stillsEverySeconds: number | null;
  budgetPolicy: BudgetPolicy;
}

export const STILLS_SECONDS = { min: 1, max: 3600 } as const;

/** The fields a policy is saved with (what PUT takes). */
export function draftOf(policy: LinkPolicy): PolicyDraft {
  return {
    manyCells: policy.manyCells,
    fewCells: policy.fewCells,
    fullScreen: policy.fullScreen,
    stills: policy.stills,
    stillsEverySeconds: policy.stillsEverySeconds,
    budgetPolicy: policy.budgetPolicy,
  };
}

export function sameAs(draft: PolicyDraft, policy: LinkPolicy): boolean {
  const saved = draftOf(policy);
  return (Object.keys(saved) as (keyof PolicyDraft)[]).every((k) => draft[k] === saved[k]);
}

const rank = (level: DefinitionLevel) => DEFINITION_LEVELS.indexOf(level);

/**
 * What is wrong with a draft, the server's rules: a bigger view never asks for less than a smaller
 * one (the picture would shrink on full screen), and the seconds between stills are 1–3600.
 */
export function problemOf(draft: PolicyDraft): 'order' | 'secondsRange' | undefined {
  if (rank(draft.fewCells) < rank(draft.manyCells) || rank(draft.fullScreen) < rank(draft.fewCells)) return 'order';
  const s = draft.stillsEverySeconds;
  if (s === null || !Number.isInteger(s) || s < STILLS_SECONDS.min || s > STILLS_SECONDS.max) return 'secondsRange';
  return undefined;
}

/** The body of PUT, once the draft has no problem. */
export function updateOf(draft: PolicyDraft): LinkPolicyUpdate | undefined {
  if (problemOf(draft) || draft.stillsEverySeconds === null) return undefined;
  return { ...draft, stillsEverySeconds: draft.stillsEverySeconds };
}
