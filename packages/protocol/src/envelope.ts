import { Type, type Static, type TSchema } from 'typebox';

/**
 * Every REST answer is wrapped as `{code, message, data}`. `code` repeats the HTTP status for
 * failures; 401 and 402 (session displaced by a newer sign-in) make the web app sign out (spec §8).
 */
export const CODES = {
  ok: 200,
  badRequest: 400,
  unauthorized: 401,
  displaced: 402,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooMany: 429,
  internal: 500,
  unavailable: 503,
} as const;

export const MESSAGES = {
  ok: 'SUCCESS',
  forbidden: 'You do not have permission to do this',
  authFailed: 'Authentication failed. Please contact administrator',
  displaced: 'Your account signed in elsewhere; this session has ended',
  wrongCredentials: 'Wrong user name or password',
  lockedOut: 'Too many failed sign-in attempts; try again later',
  tooManyFromAddress: 'Too many sign-in attempts from this address; try again later',
  notFound: 'Not found',
  internal: 'Internal server error',
} as const;

export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    code: Type.Integer(),
    message: Type.String(),
    data,
  });

/**
 * Why a request to a ship over its link failed: one vocabulary for every feature that asks a ship
 * and waits for its answer (PTZ, the ship recordings query, snapshot, the ship's picture list).
 * - `offline`: no instance holds the ship's link, or the link went before the ship answered;
 * - `timeout`: the ship did not answer in time;
 * - `unsupported`: the ship's agent does not handle that kind of request;
 * - `refused`: the ship answered that it could not do it (the message says why);
 * - `busy`: the ship answered that it is busy with other work now;
 * - `notFound`: the ship answered that it has no such thing (a preset, a picture).
 */
export const SHIP_FAILURES = ['offline', 'timeout', 'unsupported', 'refused', 'busy', 'notFound'] as const;
export type ShipFailure = (typeof SHIP_FAILURES)[number];

/**
 * The error envelope's machine-readable `reason`, for failures the web app words itself: a ship
 * failure, or a feature's own refusal (`notPtz`: the camera cannot be steered).
 */
export const ERROR_REASONS = [...SHIP_FAILURES, 'notPtz'] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

export const isErrorReason = (value: unknown): value is ErrorReason => (ERROR_REASONS as readonly unknown[]).includes(value);

export const ErrorEnvelope = Type.Object({
  code: Type.Integer(),
  message: Type.String(),
  data: Type.Null(),
  /** Set when the failure has a reason the web app words itself (see ERROR_REASONS); the message is for people and logs. */
  reason: Type.Optional(Type.Enum(ERROR_REASONS)),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

export interface EnvelopeOf<T> {
  code: number;
  message: string;
  data: T;
}
