import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ErrorEnvelope, LinkBytesQuery, LinkBytesStatistics, OrgIdParam } from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';
import { LinkRateSampler } from './link-bytes.ts';
import { visibleSubtreeShips } from '../../core/orgs/org-scope.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };
const security = [{ casJwt: [] }];

export interface LinkBytesRouteOptions {
  /** How often the connected ships' counters are read for the rate. */
  sampleMs?: number;
  /** How far back the rate looks. */
  rateWindowMs?: number;
}

/**
 * GET /statistics/linkBytes/{orgId}: what the ships' satellite links carried, per ship, direction
 * and purpose, since the server started, with the rate over the last seconds. Under /api/v1/cctv,
 * for signed-in users.
 */
const routes: FastifyPluginAsyncTypebox<LinkBytesRouteOptions> = async (app, opts) => {
  app.addHook('onRequest', app.authenticate);
  const since = Date.now();
  const sampler = new LinkRateSampler((ship, direction, purpose) => app.metrics.linkBytesOf(ship, direction, purpose), {
    windowMs: opts.rateWindowMs ?? 10_000,
  });
  const timer = setInterval(() => sampler.sample(app.agents.connectedShips()), opts.sampleMs ?? 2_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  app.get(
    '/statistics/linkBytes/:id',
    {
      schema: {
        tags: ['fleet'],
        summary: "Bytes each ship's link carried, up and down by purpose, since the server started, with the recent rate",
        description:
          'Ships of the organisation and its sub-organisations that the user may see; `ships` (comma-separated ids) limits the answer to those of them. Figures of this server instance.',
        security,
        params: OrgIdParam,
        querystring: LinkBytesQuery,
        response: { 200: Envelope(LinkBytesStatistics), ...errors },
      },
    },
    async (req) => {
      let ships = await visibleSubtreeShips(app.database.db, req.auth, req.params.id);
      if (req.query.ships !== undefined) {
        const wanted = new Set(req.query.ships.split(',').map((id) => id.trim()).filter(Boolean));
        ships = ships.filter((ship) => wanted.has(ship.id));
      }
      const connected = new Set(app.agents.connectedShips());
      return ok({
        orgId: req.params.id,
        since,
        sampledAt: Date.now(),
        rateWindowSeconds: sampler.windowSeconds,
        ships: ships.map((ship) => ({
          shipId: ship.id,
          shipName: ship.name,
          connected: connected.has(ship.id),
          ...sampler.figures(ship.id, connected.has(ship.id)),
        })),
      });
    },
  );
};

export default routes;
