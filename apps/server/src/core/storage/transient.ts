/**
 * Whether a storage error may pass by itself: the store did not answer in time (NATS's request
 * timeout is 5 s), the connection to it dropped or was refused, or nobody answered for JetStream
 * (a cluster electing a leader). Such an operation is worth trying again later; anything else (a
 * missing object, a bad key, a refused permission, a full disk) is not.
 */
export function isTransientStorageError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (TRANSIENT_NAMES.has(e.name)) return true;
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  }
  return false;
}

const TRANSIENT_NAMES = new Set(['TimeoutError', 'ClosedConnectionError', 'ConnectionError', 'DrainingConnectionError', 'NoResponders', 'NoRespondersError']);
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'TIMEOUT']);

/** The wait before retry `attempt` (1 for the first retry): doubling from `firstMs`, at most `maxMs`. */
export function backoffMs(attempt: number, firstMs: number, maxMs: number): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, attempt - 1));
}
