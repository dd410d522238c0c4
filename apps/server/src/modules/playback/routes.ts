import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ErrorEnvelope, VodQueryParams, VodQueryResultSchema } from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 409: ErrorEnvelope, 429: ErrorEnvelope, 503: ErrorEnvelope };
const security = [{ casJwt: [] }];

/** /cctvv3-server/v3/vod/...: what the ship recorder holds (spec §7 "Playback and pictures"). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/query/:shipId/:cameraId/:start/:end',
    {
      schema: {
        tags: ['playback'],
        summary:
          "Recorded spans of a camera in [start, end) on the ship's own recorder: asked of the ship over its link, and answered from the shore cache for ranges already known (cached = true). For a range shore does not know: 503 when the ship is offline, does not answer in time or its recorder fails (reason offline, timeout, refused); 409 when its agent does not play back (reason unsupported).",
        security,
        params: VodQueryParams,
        response: { 200: Envelope(VodQueryResultSchema), ...errors },
      },
    },
    async (req) => {
      const { shipId, cameraId, start, end } = req.params;
      return ok(await app.shipWork.forShip(req.auth, 'shipQuery', shipId, () => app.vod.query(req.auth, shipId, cameraId, start, end)));
    },
  );
};

export default routes;
