import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChannelSearchQuery, ChannelSearchResult, Envelope, ErrorEnvelope, OrgIdParam } from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';
import { searchChannels } from './channel-search.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };
const security = [{ casJwt: [] }];

/**
 * GET /monitor/searchChannel/{orgId}?name=: the source tree's search reaches ships not expanded
 * yet (their channels are not loaded in the browser). Registered under the signed-in subtree.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/monitor/searchChannel/:id',
    {
      schema: {
        tags: ['fleet'],
        summary: "Channels of an organisation and its sub-organisations whose name, or a camera's, holds the text",
        security,
        params: OrgIdParam,
        querystring: ChannelSearchQuery,
        response: { 200: Envelope(ChannelSearchResult), ...errors },
      },
    },
    async (req) => ok(await searchChannels(app.database.db, req.auth, req.params.id, req.query.name)),
  );
};

export default routes;
