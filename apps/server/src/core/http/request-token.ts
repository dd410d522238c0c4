import type { FastifyRequest } from 'fastify';
import { COOKIES, TOKEN_HEADER } from '@ship-cctv/protocol';

/** The session token of a request: the cas-jwt header, else the newOrgToken cookie. */
export function requestToken(req: FastifyRequest): string | undefined {
  const header = req.headers[TOKEN_HEADER];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  return fromHeader || req.cookies[COOKIES.token] || undefined;
}
