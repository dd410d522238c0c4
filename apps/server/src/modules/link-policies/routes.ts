import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ErrorEnvelope, LinkPolicyList, LinkPolicyOrgParams, LinkPolicyParams, LinkPolicyUpdate } from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };
const security = [{ casJwt: [] }];
const tags = ['fleet'];

/**
 * /api/v1/cctv/linkPolicy/{orgId}[/{linkType}] (issue 19 item 4): per link type, the definition a
 * live cell asks for in a 9/16-cell grid, a 1/4-cell grid and full screen, and the stills flag.
 * Anyone who sees the organisation reads them; its managers change them.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/:orgId',
    {
      schema: {
        tags,
        summary: "An organisation's definition policy per link type (its own, an organisation's above it, or the defaults)",
        security,
        params: LinkPolicyOrgParams,
        response: { 200: Envelope(LinkPolicyList), ...errors },
      },
    },
    async (req) => ok(await app.linkPolicy.list(req.auth, req.params.orgId)),
  );

  app.put(
    '/:orgId/:linkType',
    {
      schema: {
        tags,
        summary: "Change an organisation's definition policy for one link type (its managers)",
        description: 'Cells opened or resized afterwards follow it. manyCells ≤ fewCells ≤ fullScreen (lowest < standard < best).',
        security,
        params: LinkPolicyParams,
        body: LinkPolicyUpdate,
        response: { 200: Envelope(LinkPolicyList), ...errors },
      },
    },
    async (req) => ok(await app.linkPolicy.update(req.auth, req.params.orgId, req.params.linkType, req.body, req.auth.user.username)),
  );

  app.delete(
    '/:orgId/:linkType',
    {
      schema: {
        tags,
        summary: "Drop an organisation's own policy for one link type: it follows the organisation above it, or the defaults (its managers)",
        security,
        params: LinkPolicyParams,
        response: { 200: Envelope(LinkPolicyList), ...errors },
      },
    },
    async (req) => ok(await app.linkPolicy.reset(req.auth, req.params.orgId, req.params.linkType)),
  );
};

export default routes;
