import type { TFunction } from 'i18next';
import type { ShipFailure } from '@ship-cctv/protocol';
import { ApiError } from '../../lib/api-client.ts';

/** The reasons worded here; `refused` and `notFound` are told in the ship's own words (the message) or the feature's. */
const WORDED = ['offline', 'timeout', 'busy', 'unsupported'] as const satisfies readonly ShipFailure[];
type Worded = (typeof WORDED)[number];
const isWorded = (reason: unknown): reason is Worded => (WORDED as readonly unknown[]).includes(reason);

/** Why asking the ship failed, from the answer's reason (never from its message); undefined for any other failure. */
export function shipFailureOf(err: unknown): ShipFailure | undefined {
  if (!(err instanceof ApiError) || err.reason === 'notPtz') return undefined;
  return err.reason;
}

/**
 * A failed request to a ship in the page's language, to put into a feature's own text: the reason
 * worded here when the answer gave one, else the server's message (a ship's refusal says why in
 * its own words).
 */
export function shipFailureText(t: TFunction, err: unknown): string {
  const reason = shipFailureOf(err);
  if (isWorded(reason)) return t(`shipFailure.${reason}`);
  return err instanceof Error ? err.message : String(err);
}

/** A failure code recorded with a still or a snapshot (`offline`, `timeout`, …) in the page's language, if it is one worded here. */
export function shipFailureCodeText(t: TFunction, code: string | undefined): string | undefined {
  return isWorded(code) ? t(`shipFailure.${code}`) : undefined;
}
