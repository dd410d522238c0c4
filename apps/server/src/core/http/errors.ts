import type { FastifyInstance } from 'fastify';
import { CODES, MESSAGES } from '@ship-cctv/protocol';
import { ApiError } from './envelope.ts';

/**
 * Every refusal and fault as the envelope: an ApiError with its code (and headers such as
 * Retry-After), a client's mistake (4xx) with its reason, anything else a 500 with a generic text
 * (the details go to the log only).
 */
export function answerErrorsInTheEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown; headers?: unknown }, req, reply) => {
    if (err instanceof ApiError) {
      if (err.headers) reply.headers(err.headers);
      return reply.code(err.code).send(err.body);
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // A client's mistake: one line with the reason, no stack trace.
      req.log.info({ statusCode: status, reason: err.message }, 'request refused');
      // Headers the answer needs (Content-Range of a 416 from sendFile), as Fastify's own handler keeps them.
      if (typeof err.headers === 'object' && err.headers !== null) {
        for (const [name, value] of Object.entries(err.headers)) if (typeof value === 'string') reply.header(name, value);
      }
      return reply.code(status).send({ code: status, message: err.message, data: null });
    }
    req.log.error({ err }, 'request failed');
    return reply.code(CODES.internal).send({ code: CODES.internal, message: MESSAGES.internal, data: null });
  });

  // Checked once here, after validation, for every route's parameters, query and body (WebSocket
  // upgrades included): no text may hold a NUL (PostgreSQL refuses it mid-query), and no number may
  // be Infinity or NaN (`1e309` in JSON; ajv's type coercion lets "Infinity" past integer bounds).
  app.addHook('preHandler', async (req) => {
    const bad = findUnusable({ params: req.params, query: req.query, body: req.body });
    if (bad) throw new ApiError(CODES.badRequest, bad);
  });
}

/** Why a value cannot be used (naming its path, e.g. `query.orgId`), or null. Depth-limited. */
function findUnusable(value: unknown, path = '', depth = 0): string | null {
  const where = path.replace(/^(params|query|body)\.?/, '$1 ').trim() || 'input';
  if (typeof value === 'string') return value.includes('\u0000') ? `${where} must not contain a NUL character (U+0000)` : null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${where} must be a finite number`;
  if (depth > 8 || typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = findUnusable(item, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return null;
}
