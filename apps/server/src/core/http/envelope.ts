import { CODES, MESSAGES, type EnvelopeOf, type ErrorReason } from '@ship-cctv/protocol';

export function ok<T>(data: T): EnvelopeOf<T> {
  return { code: CODES.ok, message: MESSAGES.ok, data };
}

/**
 * A failure that is answered as `{code, message, data: null}` with the same HTTP status, and with
 * `reason` when the web app words the failure itself (the message is for people and logs).
 */
export class ApiError extends Error {
  readonly code: number;
  readonly reason: ErrorReason | undefined;
  /** Headers the answer carries (e.g. Retry-After of a 429). */
  headers: Record<string, string> | undefined;
  constructor(code: number, message: string, reason?: ErrorReason) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.name = 'ApiError';
  }

  /** The error envelope of this failure. */
  get body(): { code: number; message: string; data: null; reason?: ErrorReason } {
    return { code: this.code, message: this.message, data: null, ...(this.reason !== undefined ? { reason: this.reason } : {}) };
  }
}

export const forbidden = () => new ApiError(CODES.forbidden, MESSAGES.forbidden);
export const notFound = (what: string) => new ApiError(CODES.notFound, `${what} not found`);
export const badRequest = (message: string) => new ApiError(CODES.badRequest, message);
