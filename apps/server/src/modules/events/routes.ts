import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  CameraEventSettings,
  CameraEventSettingsAnswer,
  CameraIdParams,
  Envelope,
  ErrorEnvelope,
  EventAcknowledgeManyAnswer,
  EventAcknowledgeManyBody,
  EventDeletedAnswer,
  EventIdParams,
  EventInfoSchema,
  EventListQuery,
  EventPageSchema,
  OrgEventSettings,
  OrgIdParams,
  UnacknowledgedAnswer,
} from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };
const security = [{ casJwt: [] }];
const tags = ['events'];

/**
 * /api/v1/cctv/events: what ships' analysis found (motion, people, boats), as it crossed the link.
 * A user sees only events of ships of organisations in their access; another organisation's event
 * answers 404, as one that does not exist. STOMP /events/{shipName} tells of each event as it
 * arrives, is acknowledged or deleted.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Events, newest first: filters ship, camera, class, start in [from, to), acknowledged; pages of `size` (1–200, default 50) from `page` 1',
        security,
        querystring: EventListQuery,
        response: { 200: Envelope(EventPageSchema), ...errors },
      },
    },
    async (req) => ok(await app.events.list(req.auth, req.query)),
  );

  app.get(
    '/unacknowledged',
    {
      schema: { tags, summary: 'Events nobody acknowledged yet, counted per ship (the badge on a ship)', security, response: { 200: Envelope(UnacknowledgedAnswer), ...errors } },
    },
    async (req) => ok(await app.events.unacknowledged(req.auth)),
  );

  app.post(
    '/acknowledge',
    {
      schema: {
        tags,
        summary: 'Acknowledge events (1–200 ids); those of other organisations and those acknowledged already are left as they are',
        security,
        body: EventAcknowledgeManyBody,
        response: { 200: Envelope(EventAcknowledgeManyAnswer), ...errors },
      },
    },
    async (req) => ok(await app.events.acknowledgeMany(req.auth, req.body.ids, req.auth.user.username)),
  );

  app.get(
    '/settings/camera/:cameraId',
    {
      schema: {
        tags,
        summary: "A camera's analysis settings (the defaults when never set) and the status its ship last reported",
        security,
        params: CameraIdParams,
        response: { 200: Envelope(CameraEventSettingsAnswer), ...errors },
      },
    },
    async (req) => ok(await app.events.cameraSettings(req.auth, req.params.cameraId)),
  );

  app.put(
    '/settings/camera/:cameraId',
    {
      schema: {
        tags,
        summary: "Change a camera's analysis settings (a manager of its organisation); the ship gets them at once when its link is up, else when it comes back",
        description: 'Zones and masks are polygons of points relative to the picture (0..1). A zone point outside the picture, an unknown class or a schedule in an unknown time zone is refused (400, naming the field).',
        security,
        params: CameraIdParams,
        body: CameraEventSettings,
        response: { 200: Envelope(CameraEventSettingsAnswer), ...errors },
      },
    },
    async (req) => ok(await app.events.saveCameraSettings(req.auth, req.params.cameraId, req.body, req.auth.user.username)),
  );

  app.get(
    '/settings/org/:orgId',
    {
      schema: {
        tags,
        summary: "Which events make a toast for an organisation's users: its own rule, else the nearest above it, else people and boats at any hour",
        security,
        params: OrgIdParams,
        response: { 200: Envelope(OrgEventSettings), ...errors },
      },
    },
    async (req) => ok(await app.events.orgSettings(req.auth, req.params.orgId)),
  );

  app.put(
    '/settings/org/:orgId',
    {
      schema: {
        tags,
        summary: "Change an organisation's notify rule (its managers): classes, and hours on a zone's clock (from after to spans midnight)",
        security,
        params: OrgIdParams,
        body: OrgEventSettings,
        response: { 200: Envelope(OrgEventSettings), ...errors },
      },
    },
    async (req) => ok(await app.events.saveOrgSettings(req.auth, req.params.orgId, req.body, req.auth.user.username)),
  );

  app.get(
    '/:id',
    { schema: { tags, summary: 'One event', security, params: EventIdParams, response: { 200: Envelope(EventInfoSchema), ...errors } } },
    async (req) => ok(await app.events.get(req.auth, req.params.id)),
  );

  app.get(
    '/:id/picture',
    {
      schema: {
        tags,
        summary: "The event's best picture (JPEG, at most 30 kB); it never changes",
        security,
        params: EventIdParams,
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'image/jpeg' }), ...errors },
      },
    },
    async (req, reply) => {
      const bytes = await app.events.picture(req.auth, req.params.id);
      return reply.header('Cache-Control', 'private, max-age=31536000, immutable').type('image/jpeg').send(bytes);
    },
  );

  app.post(
    '/:id/acknowledge',
    {
      schema: {
        tags,
        summary: 'Acknowledge an event; acknowledged already, it keeps the first acknowledgement',
        security,
        params: EventIdParams,
        response: { 200: Envelope(EventInfoSchema), ...errors },
      },
    },
    async (req) => ok(await app.events.acknowledge(req.auth, req.params.id, req.auth.user.username)),
  );

  app.delete(
    '/:id',
    {
      schema: { tags, summary: 'Delete an event and its picture (a manager of its organisation)', security, params: EventIdParams, response: { 200: Envelope(EventDeletedAnswer), ...errors } },
    },
    async (req) => ok(await app.events.delete(req.auth, req.params.id)),
  );
};

export default routes;
