import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CameraStatusEntry, Envelope, ErrorEnvelope, ShipIdParam, ShipStatusEntry, ShipStatusQuery } from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };
const security = [{ casJwt: [] }];

/** /api/v1/cctv-server/...: live status of ships and cameras (spec §7). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/getShipStatus',
    {
      schema: {
        tags: ['status'],
        summary: 'Link status of the ships the user may see (or of the listed ones); online tells whether the agent is connected',
        security,
        body: Type.Optional(ShipStatusQuery),
        response: { 200: Envelope(Type.Array(ShipStatusEntry)), ...errors },
      },
    },
    async (req) => {
      const ships = await app.fleet.visibleShips(req.auth, req.body?.shipIds);
      return ok(await app.status.shipStatuses(ships));
    },
  );

  app.get(
    '/session/getCameraStatus/:id',
    {
      schema: {
        tags: ['status'],
        summary: 'Online and recording state of every camera of a ship',
        security,
        params: ShipIdParam,
        response: { 200: Envelope(Type.Array(CameraStatusEntry)), ...errors },
      },
    },
    async (req) => {
      await app.fleet.requireShip(req.auth, req.params.id);
      return ok(await app.status.cameraStatuses(req.params.id));
    },
  );
};

export default routes;
