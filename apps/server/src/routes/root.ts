import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { LIMITS, PATHS, PRODUCT_VERSION, RuntimeConfig } from '@ship-cctv/protocol';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['server'],
        summary: 'Answers 200 once the server accepts work',
        response: { 200: Type.Object({ status: Type.Literal('ok'), version: Type.String(), database: Type.String() }) },
      },
    },
    async () => ({ status: 'ok' as const, version: PRODUCT_VERSION, database: app.database.kind }),
  );

  app.get(
    PATHS.runtimeConfig,
    {
      schema: {
        tags: ['server'],
        summary: 'Runtime configuration the web app reads at start',
        response: { 200: RuntimeConfig },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      return {
        version: PRODUCT_VERSION,
        apiBase: PATHS.apiBase,
        stompPath: PATHS.stomp,
        mediaPath: PATHS.media,
        httpTimeoutMs: LIMITS.httpTimeoutMs,
        heartbeatMs: LIMITS.sessionHeartbeatMs,
        defaultLanguage: 'zh-CN',
      };
    },
  );
};

export default routes;
