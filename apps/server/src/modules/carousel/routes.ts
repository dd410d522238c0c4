import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  CarouselDetailSchema,
  CarouselEstimateBody,
  CarouselEstimateSchema,
  CarouselIdParams,
  CarouselListQuery,
  CarouselSchema,
  CarouselSettingsSchema,
  CarouselStatusSchema,
  Envelope,
  ErrorEnvelope,
  SimpleCarouselBody,
  TaskCarouselBody,
} from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };
const taskErrors = { ...errors, 409: ErrorEnvelope };
const security = [{ casJwt: [] }];
const tags = ['carousel'];
const OrgIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$', description: 'Organisation' }) });

/**
 * Carousels (spec §7 "Carousel", under /api/v1/cctv/carousel/): simple carousels (`add1`,
 * `info1`, `simple/list`), carousel tasks (`add2`, `info2`, `task/list`, `task/start|stop|status`,
 * `task/stopAll`), `del`, and this product's `settings` and `estimate`. Every call checks the
 * organisation.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/settings', { schema: { tags, summary: 'What this server allows the carousel editor: a dwell in seconds, the pre-warm', security, response: { 200: Envelope(CarouselSettingsSchema), ...errors } } }, async () =>
    ok(app.carousel.settings()),
  );

  app.get(
    '/simple/list',
    { schema: { tags, summary: "Simple carousels of the organisation (and its sub-organisations), or of every organisation the user sees", security, querystring: CarouselListQuery, response: { 200: Envelope(Type.Array(CarouselSchema)), ...errors } } },
    async (req) => ok(await app.carousel.list(req.auth, 'simple', req.query.orgId)),
  );
  app.get(
    '/task/list',
    { schema: { tags, summary: 'Carousel tasks of the organisation (and its sub-organisations), with whether each runs', security, querystring: CarouselListQuery, response: { 200: Envelope(Type.Array(CarouselSchema)), ...errors } } },
    async (req) => ok(await app.carousel.list(req.auth, 'task', req.query.orgId)),
  );

  app.post(
    '/add1',
    { schema: { tags, summary: 'Creates (or, with id, updates) a simple carousel: channels in order, layout, minutes per page, definition', security, body: SimpleCarouselBody, response: { 200: Envelope(CarouselSchema), ...errors } } },
    async (req) => ok(await app.carousel.save(req.auth, 'simple', req.body, req.auth.userId)),
  );
  app.post(
    '/add2',
    {
      schema: {
        tags,
        summary: 'Creates (or, with id, updates) a carousel task: as a simple one, plus a mode (channels, ships, organisation) and a weekly schedule',
        security,
        body: TaskCarouselBody,
        response: { 200: Envelope(CarouselSchema), ...errors },
      },
    },
    async (req) => ok(await app.carousel.save(req.auth, 'task', req.body, req.auth.userId)),
  );

  app.get(
    '/info1/:id',
    { schema: { tags, summary: 'A simple carousel and its channels as cells, in order', security, params: CarouselIdParams, response: { 200: Envelope(CarouselDetailSchema), ...errors } } },
    async (req) => ok(await app.carousel.detail(req.auth, req.params.id, 'simple')),
  );
  app.get(
    '/info2/:id',
    { schema: { tags, summary: "A carousel task and its channels as cells (mode ships or organisation: the ones they hold now)", security, params: CarouselIdParams, response: { 200: Envelope(CarouselDetailSchema), ...errors } } },
    async (req) => ok(await app.carousel.detail(req.auth, req.params.id, 'task')),
  );
  app.get(
    '/del/:id',
    { schema: { tags, summary: 'Deletes a carousel (a running task is stopped first)', security, params: CarouselIdParams, response: { 200: Envelope(CarouselSchema), ...errors } } },
    async (req) => ok(await app.carousel.remove(req.auth, req.params.id)),
  );

  app.get(
    '/task/start/:id',
    { schema: { tags, summary: 'Starts a carousel task on shore: its pages turn on the server’s clock and are published on /carousel/{id}', security, params: CarouselIdParams, response: { 200: Envelope(CarouselStatusSchema), ...taskErrors } } },
    async (req) => ok(await app.carousel.start(req.auth, req.params.id)),
  );
  app.get(
    '/task/stop/:id',
    { schema: { tags, summary: 'Stops a running carousel task', security, params: CarouselIdParams, response: { 200: Envelope(CarouselStatusSchema), ...taskErrors } } },
    async (req) => ok(await app.carousel.stop(req.auth, req.params.id)),
  );
  app.get(
    '/task/status/:id',
    { schema: { tags, summary: 'Where a carousel task is: state, page, its cells and the next page’s, when the page changes', security, params: CarouselIdParams, response: { 200: Envelope(CarouselStatusSchema), ...errors } } },
    async (req) => ok(await app.carousel.status(req.auth, req.params.id)),
  );
  app.get(
    '/task/stopAll/:id',
    { schema: { tags, summary: 'Stops every running carousel task of an organisation (id) and its sub-organisations', security, params: OrgIdParams, response: { 200: Envelope(Type.Object({ stopped: Type.Integer() })), ...errors } } },
    async (req) => ok(await app.carousel.stopAll(req.auth, req.params.id)),
  );

  app.post(
    '/estimate',
    { schema: { tags, summary: 'What a carousel would cost the ships’ uplinks per hour, against streaming its channels all the time', security, body: CarouselEstimateBody, response: { 200: Envelope(CarouselEstimateSchema), ...errors } } },
    async (req) => ok(await app.carousel.estimate(req.auth, req.body)),
  );
};

export default routes;
