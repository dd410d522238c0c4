import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DEFAULT_RUNTIME_CONFIG, PATHS, PRODUCT_VERSION, RuntimeConfig } from '@ship-cctv/protocol';
import { databaseAnswers } from '../db/health.ts';

/** /healthz, /readyz (the database and the cluster's status store) and the web app's runtime configuration. */
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

  const Check = Type.Union([Type.Literal('ok'), Type.Literal('down')]);
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['server'],
        summary: 'Readiness: 200 when the database and the status store (Redis, when set) answer, else 503 naming what is down',
        response: {
          200: Type.Object({ status: Type.Literal('ready'), database: Check, statusStore: Check }),
          503: Type.Object({ status: Type.Literal('unavailable'), database: Check, statusStore: Check }),
        },
      },
    },
    async (_req, reply) => {
      const within = <T>(p: Promise<T>, ms: number) =>
        Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref())]);
      const [database, statusStore] = await Promise.all([
        within(databaseAnswers(app.database.db), 2_000).then(
          () => 'ok' as const,
          () => 'down' as const,
        ),
        within(app.bus.ping(), 2_000).then(
          (up) => (up ? ('ok' as const) : ('down' as const)),
          () => 'down' as const,
        ),
      ]);
      if (database === 'ok' && statusStore === 'ok') return { status: 'ready' as const, database, statusStore };
      return reply.code(503).send({ status: 'unavailable' as const, database, statusStore });
    },
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
      return DEFAULT_RUNTIME_CONFIG;
    },
  );
};

export default routes;
