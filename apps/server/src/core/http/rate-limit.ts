import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { CODES, MESSAGES } from '@ship-cctv/protocol';

/** Registered with global off: routes opt in with `config.rateLimit` (sign-in is per address). */
export default fp(async (app) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, context) => ({
      statusCode: CODES.tooMany,
      code: CODES.tooMany,
      message: `${MESSAGES.tooManyFromAddress} (${Math.ceil(context.ttl / 1000)} s)`,
      data: null,
    }),
  });
});
