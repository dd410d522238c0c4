import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  Channel,
  ChannelTag,
  ChannelTagQuery,
  Envelope,
  ErrorEnvelope,
  OrgIdParam,
  OrgIdQuery,
  OrgShipTree,
  PlaybackAutoShutdown,
  PlaybackAutoShutdownUpdate,
  ShipGroupList,
  ShipGroupQuery,
  ShipIdParam,
  ShipsAndChannels,
  WaitTime,
  WaitTimeQuery,
} from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';
import channelSearchRoutes from './channel-search-routes.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };
const security = [{ casJwt: [] }];

/** /api/v1/cctv/...: the fleet as the user sees it; every route here needs a signed-in user, applied once for the subtree. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);
  // Under the same sign-in: the channel search of the source tree.
  await app.register(channelSearchRoutes);

  app.get(
    '/monitor/getOrgShipTreeUnion',
    {
      schema: {
        tags: ['fleet'],
        summary: 'Organisations the user may see, as a tree, with their ships',
        security,
        response: { 200: Envelope(OrgShipTree), ...errors },
      },
    },
    async (req) => ok({ orgShipTreeNodes: await app.fleet.orgShipTree(req.auth) }),
  );

  app.get(
    '/monitor/getChannel/:id',
    {
      schema: {
        tags: ['fleet'],
        summary: "A ship's channels with their cameras (blocked channels included, with block = 1)",
        security,
        params: ShipIdParam,
        response: { 200: Envelope(Type.Array(Channel)), ...errors },
      },
    },
    async (req) => ok(await app.fleet.channels(req.auth, req.params.id)),
  );

  app.get(
    '/shipGroup/ship/list',
    {
      schema: {
        tags: ['fleet'],
        summary: "A ship's definition groups and models, default group, talk and audio flags",
        security,
        querystring: ShipGroupQuery,
        response: { 200: Envelope(ShipGroupList), ...errors },
      },
    },
    async (req) => ok({ data: await app.fleet.shipConfig(req.auth, req.query.orgId, req.query.shipId) }),
  );

  app.get(
    '/channel/tag/list',
    {
      schema: {
        tags: ['fleet'],
        summary: "Channel tags of the user's organisations, or of one organisation",
        security,
        querystring: ChannelTagQuery,
        response: { 200: Envelope(Type.Array(ChannelTag)), ...errors },
      },
    },
    async (req) => ok(await app.fleet.channelTags(req.auth, req.query.orgId)),
  );

  app.get(
    '/statistics/shipsAndChannels/:id',
    {
      schema: {
        tags: ['fleet'],
        summary: 'Counts of ships, channels and cameras of an organisation and its sub-organisations',
        security,
        params: OrgIdParam,
        response: { 200: Envelope(ShipsAndChannels), ...errors },
      },
    },
    async (req) => ok(await app.fleet.shipsAndChannels(req.auth, req.params.id)),
  );

  app.get(
    '/playbackautoshutdown/findByOrgId',
    {
      schema: {
        tags: ['fleet'],
        summary: "An organisation's continuous-watching limit",
        security,
        querystring: OrgIdQuery,
        response: { 200: Envelope(PlaybackAutoShutdown), ...errors },
      },
    },
    async (req) => ok(await app.fleet.playbackAutoShutdown(req.auth, req.query.orgID)),
  );

  app.post(
    '/playbackautoshutdown/update',
    {
      schema: {
        tags: ['fleet'],
        summary: "Change an organisation's continuous-watching limit (its managers)",
        description: 'Views started afterwards follow it. The countdown must be shorter than the limit.',
        security,
        body: PlaybackAutoShutdownUpdate,
        response: { 200: Envelope(PlaybackAutoShutdown), ...errors },
      },
    },
    async (req) => ok(await app.fleet.updatePlaybackAutoShutdown(req.auth, req.body)),
  );

  app.get(
    '/ship/waitTime',
    {
      schema: {
        tags: ['fleet'],
        summary: 'Seconds to expect before the first frame from ships of an organisation, by organisation name',
        security,
        querystring: WaitTimeQuery,
        response: { 200: Envelope(WaitTime), ...errors },
      },
    },
    async (req) => ok(await app.fleet.waitTimeByOrgName(req.auth, req.query.orgName)),
  );
};

export default routes;
