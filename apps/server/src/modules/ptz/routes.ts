import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  Envelope,
  ErrorEnvelope,
  PtzCameraParams,
  PtzCommandAnswerSchema,
  PtzMoveBody,
  PtzPresetBody,
  PtzPresetListSchema,
  PtzPresetParams,
  PtzPresetSchema,
} from '@ship-cctv/protocol';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../core/http/envelope.ts';
import type { PtzOperator } from './ptz-service.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 409: ErrorEnvelope, 429: ErrorEnvelope, 503: ErrorEnvelope };
const security = [{ casJwt: [] }];
const tags = ['ptz'];
const FAILS =
  " 503 at once while the ship is offline (reason offline), or when it does not answer in time (timeout) or cannot do it (refused); 409 when the camera is not PTZ (notPtz) or the ship's agent does not steer cameras (unsupported); 403 for a ship outside the user's organisations (or unknown); 429 over the user's or the ship's PTZ limit.";

const operator = (req: FastifyRequest): PtzOperator => ({ access: req.auth, displayName: req.auth.user.displayName || req.auth.user.username });

type ShipCameraRequest = FastifyRequest<{ Params: { shipId: string; cameraId: string } }>;

/**
 * PTZ control (issue 15), under /api/v1/cctv/ptz/{shipId}/{cameraId}/: continuous move and stop,
 * and the camera's presets. Every call checks the organisation; the last command wins, and who
 * sent it is published on STOMP `/ptz/{cameraId}`.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const limited = <T>(req: ShipCameraRequest, work: () => Promise<T>) => app.shipWork.forShip(req.auth, 'ptz', req.params.shipId, work);

  app.post(
    '/:shipId/:cameraId/move',
    {
      schema: {
        tags,
        summary: `Moves the camera at the given speeds until the next command or timeoutMs (the camera stops by itself: repeat while a control is held).${FAILS}`,
        security,
        params: PtzCameraParams,
        body: PtzMoveBody,
        response: { 200: Envelope(PtzCommandAnswerSchema), ...errors },
      },
    },
    async (req) => ok(await limited(req, () => app.ptz.move(operator(req), req.params.shipId, req.params.cameraId, req.body))),
  );

  app.post(
    '/:shipId/:cameraId/stop',
    { schema: { tags, summary: `Stops the camera's movement.${FAILS}`, security, params: PtzCameraParams, response: { 200: Envelope(PtzCommandAnswerSchema), ...errors } } },
    async (req) => ok(await limited(req, () => app.ptz.stop(operator(req), req.params.shipId, req.params.cameraId))),
  );

  app.get(
    '/:shipId/:cameraId/presets',
    { schema: { tags, summary: `The camera's presets (kept on the ship, or in the camera).${FAILS}`, security, params: PtzCameraParams, response: { 200: Envelope(PtzPresetListSchema), ...errors } } },
    async (req) => ok(await limited(req, () => app.ptz.presets(operator(req), req.params.shipId, req.params.cameraId))),
  );

  app.post(
    '/:shipId/:cameraId/presets',
    {
      schema: { tags, summary: `Keeps where the camera looks now as a new preset with this name.${FAILS}`, security, params: PtzCameraParams, body: PtzPresetBody, response: { 200: Envelope(PtzPresetSchema), ...errors } },
    },
    async (req) => ok(await limited(req, () => app.ptz.setPreset(operator(req), req.params.shipId, req.params.cameraId, req.body.name))),
  );

  app.post(
    '/:shipId/:cameraId/presets/:presetId/goto',
    { schema: { tags, summary: `Turns the camera to a preset (404: no such preset).${FAILS}`, security, params: PtzPresetParams, response: { 200: Envelope(PtzCommandAnswerSchema), ...errors } } },
    async (req) => ok(await limited(req, () => app.ptz.gotoPreset(operator(req), req.params.shipId, req.params.cameraId, req.params.presetId))),
  );

  app.delete(
    '/:shipId/:cameraId/presets/:presetId',
    { schema: { tags, summary: `Deletes a preset (404: no such preset).${FAILS}`, security, params: PtzPresetParams, response: { 200: Envelope(Type.Null()), ...errors } } },
    async (req) => {
      await limited(req, () => app.ptz.removePreset(operator(req), req.params.shipId, req.params.cameraId, req.params.presetId));
      return ok(null);
    },
  );
};

export default routes;
