import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BackfillOrgParams, BackfillOrgSetting, BackfillOrgUpdate, BackfillPendingQuery, BackfillPendingSpan, Envelope, ErrorEnvelope } from '@ship-cctv/protocol';
import { forbidden, ok } from '../../core/http/envelope.ts';
import type { Access } from '../../core/orgs/access.ts';
import { requireOrg } from '../../core/orgs/org-tree.ts';
import { managedOrgIds } from '../../core/orgs/repo.ts';
import type { BackfillRepo } from './repo.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };
const security = [{ casJwt: [] }];
const tags = ['recordings'];

/**
 * /api/v1/cctv/record/backfill: an organisation's backfill switch and definition (anyone who sees
 * it reads them, its managers change them; each camera's own are `backfill` and
 * `backfillDefinition` of its recording configuration, PUT /record/config/{id}), and the spans of a
 * camera's shore recording waiting to be refilled.
 */
const routes: FastifyPluginAsyncTypebox<{ repo: BackfillRepo }> = async (app, opts) => {
  app.addHook('onRequest', app.authenticate);
  const { repo } = opts;

  const setting = async (access: Access, orgId: string): Promise<BackfillOrgSetting> => {
    requireOrg(access, orgId);
    const applies = await repo.orgSetting(orgId, access.orgs);
    const canEdit = access.orgs.subtree(await managedOrgIds(app.database.db, access.userId)).has(orgId);
    return { orgId, ...applies, canEdit };
  };

  app.get(
    '/org/:orgId',
    {
      schema: {
        tags,
        summary: "Whether gaps in an organisation's shore recordings are refilled from its ships, and in which definition (its own choice, one above it, or on and as recorded)",
        security,
        params: BackfillOrgParams,
        response: { 200: Envelope(BackfillOrgSetting), ...errors },
      },
    },
    async (req) => ok(await setting(req.auth, req.params.orgId)),
  );

  app.put(
    '/org/:orgId',
    {
      schema: {
        tags,
        summary: 'Turn backfill on or off, or choose the definition gaps are refilled in, for an organisation and those below it without their own (its managers)',
        description:
          'Off: no gap of its ships’ shore recordings is refilled from the ships, whatever the cameras’ own switches say. Spans being copied finish. ' +
          '`definition`: recorded (the shore recording’s own, the default), lowest, satellite (the ship’s definitions at those levels, never above the recorded one), ' +
          'or ship (the ship recorder’s own files, copied); a camera may choose its own (`backfillDefinition` of its recording configuration). ' +
          'The ship transcodes a span only when that saves a quarter or more of the bytes it recorded; an agent that cannot transcode sends its own files.',
        security,
        params: BackfillOrgParams,
        body: BackfillOrgUpdate,
        response: { 200: Envelope(BackfillOrgSetting), ...errors },
      },
    },
    async (req) => {
      const before = await setting(req.auth, req.params.orgId);
      if (!before.canEdit) throw forbidden();
      await repo.setOrg(req.params.orgId, req.body, req.auth.user.username);
      return ok(await setting(req.auth, req.params.orgId));
    },
  );

  app.get(
    '/pending',
    {
      schema: {
        tags,
        summary: "Spans of a camera's shore recording waiting to be refilled from the ship (pending) or being copied now (running)",
        description: 'Known on the server instance that holds the ship’s link (the others answer an empty list).',
        security,
        querystring: BackfillPendingQuery,
        response: { 200: Envelope(Type.Array(BackfillPendingSpan)), ...errors },
      },
    },
    async (req) => {
      await app.fleet.requireCameraOfShip(req.auth, req.query.shipId, req.query.cameraId);
      return ok(app.backfill.pendingBackfill(req.query.shipId, req.query.cameraId));
    },
  );
};

export default routes;
