import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Routes under /api/v1/cctv/record/backfill (filled in with the switches and the timeline's spans). */
const routes: FastifyPluginAsyncTypebox = async () => undefined;

export default routes;
