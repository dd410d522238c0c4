import { CODES } from '@ship-cctv/protocol';
import { ApiError } from '../../lib/api-client.ts';

export const LOGIN_PATH = '/login';
export const REPEAT_LOGIN_PATH = '/repeatLogin';

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'validate' };

export interface GuardInput {
  /** Every route but login, jump and repeatLogin (spec §2). */
  requiresAuth: boolean;
  isLogin: boolean;
  hasToken: boolean;
  /** The token was already validated in this page load. */
  validated: boolean;
}

/**
 * Spec §4 route guard: an auth route without a token goes to /login; a token on /login goes to /;
 * otherwise an unvalidated token is validated once (a failure is the caller's: delete, /login).
 */
export function decideRoute({ requiresAuth, isLogin, hasToken, validated }: GuardInput): GuardDecision {
  if (requiresAuth && !hasToken) return { kind: 'redirect', to: LOGIN_PATH };
  if (isLogin && hasToken) return { kind: 'redirect', to: '/' };
  if (requiresAuth && !validated) return { kind: 'validate' };
  return { kind: 'allow' };
}

/**
 * Where an ended session sends the user (spec §8): displaced (402) → /repeatLogin to explain why;
 * otherwise /login, unless already there (a late 401 must not reload the sign-in screen).
 */
export function sessionEndedTarget(code: number, pathname: string): string | null {
  if (code === CODES.displaced) return pathname === REPEAT_LOGIN_PATH ? null : REPEAT_LOGIN_PATH;
  return pathname === LOGIN_PATH ? null : LOGIN_PATH;
}

/** Waits before asking again when a token check got no answer of the server's own (at most two more asks). */
export const VALIDATION_RETRY_MS = [1_000, 3_000] as const;

/**
 * After the `attempt`-th token check failed: how long to wait before asking again, or undefined
 * when the failure is the token's (the server refused it: sign in again). Only a check the server
 * did not answer for itself — no answer, a time-out, a gateway's error page, or a server error —
 * is asked again: a blip of the shore's network or a restarting server must not sign the operator
 * out.
 */
export function validationRetryMs(error: unknown, attempt: number): number | undefined {
  const transient = error instanceof ApiError && (error.unreachable || (error.kind === 'envelope' && error.code >= 500));
  return transient ? VALIDATION_RETRY_MS[attempt - 1] : undefined;
}
