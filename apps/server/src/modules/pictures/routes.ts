import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  Envelope,
  ErrorEnvelope,
  PictureBlobQuery,
  PictureFetchAnswerSchema,
  PictureFetchParams,
  PictureFilterSchema,
  PictureIdParams,
  PicturePageParams,
  PicturePageSchema,
  ShipPicListBody,
  ShipPicListParams,
  ShipPicListSchema,
  SnapshotAnswerSchema,
  SnapshotParams,
  EnhanceIdParams,
  EnhanceJobSchema,
  EnhanceRequestSchema,
  SnapshotTaskDetailSchema,
  SnapshotTaskRequestSchema,
  SnapshotTaskStatusSchema,
  TaskIdParams,
  TaskListBody,
} from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 503: ErrorEnvelope };
/**
 * Calls that make the ship send or work also answer 429 (with Retry-After) over the user's or the
 * ship's limit, and 409 (reason unsupported) when the ship's agent does not handle pictures.
 */
const shipErrors = { ...errors, 409: ErrorEnvelope, 429: ErrorEnvelope };
const security = [{ casJwt: [] }];
const tags = ['pictures'];

/**
 * Pictures (spec §7 "Playback and pictures"): snapshot now, the picture itself, shore's pictures,
 * the ship's pictures, and fetching one from the ship. Every call checks the organisation.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/cctvv3-server/v3/snapshot/requestPro/:shipId/:channelId/:cameraId/:templateId/:source',
    {
      schema: {
        tags,
        summary:
          'Snapshot now (`source` live) or from the ship recorder at a time (`source` an epoch ms): answers the picture id at once; STOMP /pictures/{shipName} tells when it is taken and as it crosses. 503 (reason offline) while the ship is offline.',
        security,
        params: SnapshotParams,
        response: { 200: Envelope(SnapshotAnswerSchema), ...shipErrors },
      },
    },
    async (req) => ok(await app.shipWork.forShip(req.auth, 'snapshot', req.params.shipId, () => app.pictures.snapshot(req.auth, req.params))),
  );

  app.get(
    '/cctvv3-server/v3/th/getById/:id',
    {
      schema: {
        tags,
        summary: 'The picture (JPEG); `thumb=1` its thumbnail (also of a picture only listed from its ship); `download=1` as an attachment. ETag and cache headers: a picture never changes.',
        security,
        params: PictureIdParams,
        querystring: PictureBlobQuery,
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'image/jpeg' }), 304: Type.Null(), ...errors },
      },
    },
    async (req, reply) => {
      const thumb = req.query.thumb === '1';
      const blob = await app.pictures.blob(req.auth, req.params.id, thumb);
      reply.header('ETag', blob.etag).header('Cache-Control', 'private, max-age=31536000, immutable');
      if (req.headers['if-none-match'] === blob.etag) return reply.code(304).send(null);
      if (req.query.download === '1') reply.header('Content-Disposition', `attachment; filename="${blob.fileName.replace(/[^\w.-]/g, '_')}"`);
      return reply.type('image/jpeg').send(blob.bytes);
    },
  );

  app.post(
    '/api/v1/cctv/snapshot/complexQuery/:page/:size',
    {
      schema: {
        tags,
        summary: 'Pictures on shore (newest first) of the ships the user may see, by organisation, ship, channel, camera, time and origin (manual or task)',
        security,
        params: PicturePageParams,
        body: Type.Optional(PictureFilterSchema),
        response: { 200: Envelope(PicturePageSchema), ...errors },
      },
    },
    async (req) => ok(await app.pictures.query(req.auth, req.body ?? {}, req.params.page, req.params.size)),
  );

  app.post(
    '/api/v1/cctv-server/v3/getPicList/:shipId',
    {
      schema: {
        tags,
        summary:
          "What the ship holds of a camera in [from, to), newest first, with thumbnails (getById?thumb=1): asked over the ship's link and kept on shore; while the ship is offline, what shore learnt before (cached = true).",
        security,
        params: ShipPicListParams,
        body: ShipPicListBody,
        response: { 200: Envelope(ShipPicListSchema), ...shipErrors },
      },
    },
    async (req) => ok(await app.shipWork.forShip(req.auth, 'shipQuery', req.params.shipId, () => app.pictures.shipList(req.auth, req.params.shipId, req.body))),
  );

  app.post(
    '/api/v1/cctv-server/v3/fetchPic/:shipId/:id',
    {
      schema: {
        tags,
        summary: "Fetch a picture the ship holds: it goes first in the ship's outbox; STOMP /pictures/{shipName} tells its progress, getById shows it once stored.",
        security,
        params: PictureFetchParams,
        response: { 200: Envelope(PictureFetchAnswerSchema), ...shipErrors },
      },
    },
    async (req) => ok(await app.shipWork.forShip(req.auth, 'snapshot', req.params.shipId, () => app.pictures.fetch(req.auth, req.params.shipId, req.params.id))),
  );

  // ── snapshot tasks (spec §7 "Snapshot tasks") ──────────────────────────────────────────────────
  const taskTags = ['snapshot tasks'];

  app.post(
    '/api/v1/cctv-server/v3/submitTask',
    {
      schema: {
        tags: taskTags,
        summary:
          "A snapshot task: the ship shoots every camera of the channels every `rateHours` within [start, end), on its own clock, link or no link; the pictures reach shore through its outbox. Handed over at once, or when the ship's link is back.",
        security,
        body: SnapshotTaskRequestSchema,
        response: { 200: Envelope(SnapshotTaskStatusSchema), ...errors },
      },
    },
    async (req) => ok(await app.pictures.tasks.submit(req.auth, req.body, req.auth.userId)),
  );

  app.get(
    '/api/v1/cctv-server/v3/getNowTaskStatus/:id',
    {
      schema: { tags: taskTags, summary: "A task's state (pending hand-over, active, link down, finished, deleted) and its shots counted by state", security, params: TaskIdParams, response: { 200: Envelope(SnapshotTaskStatusSchema), ...errors } },
    },
    async (req) => ok(await app.pictures.tasks.status(req.auth, req.params.id)),
  );

  app.get(
    '/api/v1/cctv-server/v3/getTaskDetailStatus/:id',
    {
      schema: { tags: taskTags, summary: 'A task and each of its shots: planned, on its way (taken, in the outbox), on shore, or failed with the reason', security, params: TaskIdParams, response: { 200: Envelope(SnapshotTaskDetailSchema), ...errors } },
    },
    async (req) => ok(await app.pictures.tasks.detail(req.auth, req.params.id)),
  );

  app.delete(
    '/api/v1/cctv-server/v3/delTask/:id',
    {
      schema: { tags: taskTags, summary: 'Deletes a task: the ship stops it (when its link is up); pictures already taken are kept', security, params: TaskIdParams, response: { 200: Envelope(SnapshotTaskStatusSchema), ...errors } },
    },
    async (req) => ok(await app.pictures.tasks.remove(req.auth, req.params.id)),
  );

  app.post(
    '/api/v1/cctv-server/v3/getTasks',
    {
      schema: { tags: taskTags, summary: 'The snapshot tasks of the ships the user may see (of an organisation or a ship), newest first', security, body: Type.Optional(TaskListBody), response: { 200: Envelope(Type.Array(SnapshotTaskStatusSchema)), ...errors } },
    },
    async (req) => ok(await app.pictures.tasks.list(req.auth, req.body ?? {})),
  );

  // ── AI super-resolution (spec §7) ───────────────────────────────────────────────────────────────
  const ai = '/api/v1/ai/SuperResolutionV1/api';
  const aiTags = ['super-resolution'];

  app.post(
    `${ai}/commit`,
    {
      schema: {
        tags: aiTags,
        summary: 'Enhance a picture on shore ×2 or ×4 with a learned super-resolution model (ESRGAN-slim): answers a job; progress by its id',
        security,
        body: EnhanceRequestSchema,
        response: { 200: Envelope(EnhanceJobSchema), ...errors, 429: ErrorEnvelope },
      },
    },
    async (req) => ok(await app.enhance.commit(req.auth, req.body.pictureId, req.body.scale, req.auth.userId)),
  );

  app.get(
    `${ai}/progress/:id`,
    { schema: { tags: aiTags, summary: 'An enhancement: state and progress (0–100, tile by tile)', security, params: EnhanceIdParams, response: { 200: Envelope(EnhanceJobSchema), ...errors } } },
    async (req) => ok(await app.enhance.status(req.auth, req.params.id)),
  );

  app.post(
    `${ai}/cancel/:id`,
    { schema: { tags: aiTags, summary: 'Cancels an enhancement (a running one stops within a second)', security, params: EnhanceIdParams, response: { 200: Envelope(EnhanceJobSchema), ...errors } } },
    async (req) => ok(await app.enhance.cancel(req.auth, req.params.id)),
  );

  app.get(
    `${ai}/result/:id`,
    {
      schema: {
        tags: aiTags,
        summary: "A finished enhancement's picture (JPEG)",
        security,
        params: EnhanceIdParams,
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'image/jpeg' }), ...errors },
      },
    },
    async (req, reply) => {
      const result = await app.enhance.result(req.auth, req.params.id);
      return reply.type('image/jpeg').header('Cache-Control', 'private, max-age=31536000, immutable').header('Content-Disposition', `inline; filename="${result.fileName}"`).send(result.bytes);
    },
  );
};

export default routes;
