import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ErrorEnvelope, StillAnswerSchema, StillParams, StillRequestSchema } from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 429: ErrorEnvelope };
const security = [{ casJwt: [] }];
const tags = ['pictures'];

/** /api/v1/cctv/stills/{cameraId} (issue 19 item 3): the latest still of a camera for a cell in stills mode. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/:cameraId',
    {
      schema: {
        tags,
        summary: "A camera's latest still (stills mode): the newest picture on shore, and a new one asked of the ship when that is older than the ship's link policy's period and none is on its way",
        description:
          'Every viewer of the camera shares one take per period, on any instance. The picture itself is /cctvv3-server/v3/th/getById/{pictureId} (`thumb=1` first); STOMP /pictures/{shipName} tells when a pending one is stored. `nextInMs`: when to ask again.',
        security,
        params: StillParams,
        body: StillRequestSchema,
        response: { 200: Envelope(StillAnswerSchema), ...errors },
      },
    },
    async (req) => ok(await app.shipWork.forCamera(req.auth, 'still', req.params.cameraId, () => app.stills.latest(req.auth, req.params.cameraId, req.body.templateId))),
  );
};

export default routes;
