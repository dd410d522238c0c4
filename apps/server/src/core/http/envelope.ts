import { CODES, MESSAGES, type EnvelopeOf } from '@ship-cctv/protocol';

export function ok<T>(data: T): EnvelopeOf<T> {
  return { code: CODES.ok, message: MESSAGES.ok, data };
}

/** A failure that is answered as `{code, message, data: null}` with the same HTTP status. */
export class ApiError extends Error {
  readonly code: number;
  /** Headers the answer carries (e.g. Retry-After of a 429). */
  headers: Record<string, string> | undefined;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
    this.name = 'ApiError';
  }
}

export const forbidden = () => new ApiError(CODES.forbidden, MESSAGES.forbidden);
export const notFound = (what: string) => new ApiError(CODES.notFound, `${what} not found`);
export const badRequest = (message: string) => new ApiError(CODES.badRequest, message);
