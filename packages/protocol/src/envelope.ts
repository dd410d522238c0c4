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

export const ErrorEnvelope = Type.Object({
  code: Type.Integer(),
  message: Type.String(),
  data: Type.Null(),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

export interface EnvelopeOf<T> {
  code: number;
  message: string;
  data: T;
}
