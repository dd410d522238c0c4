import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  BudgetOverride,
  BudgetOverrideRequest,
  DataBudgetDelete,
  DataBudgetSetting,
  DataBudgetShipQuery,
  DataBudgetStatistics,
  DataBudgetUpdate,
  Envelope,
  ErrorEnvelope,
  OrgIdParam,
} from '@ship-cctv/protocol';
import { ok } from '../../core/http/envelope.ts';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };
const security = [{ casJwt: [] }];
const tags = ['budget'];

/**
 * Data budgets (not in the spec; the style of `/playbackautoshutdown/…` and `/statistics/…`),
 * under /api/v1/cctv: use against the caps per ship, the settings (managers), overrides of a
 * blocked ship and their log. Every call checks the organisation or ship first.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/statistics/dataBudget/:id',
    {
      schema: {
        tags,
        summary: "Each ship's data use today and this month (its own calendar) against its budget, with the budget that applies",
        description: 'Ships of the organisation and its sub-organisations that the user may see; `ships` (comma-separated ids) limits the answer to those. Figures of every instance (the database), at most a few seconds old.',
        security,
        params: OrgIdParam,
        querystring: DataBudgetShipQuery,
        response: { 200: Envelope(DataBudgetStatistics), ...errors },
      },
    },
    async (req) => {
      const only = req.query.ships?.split(',').map((s) => s.trim()).filter(Boolean);
      return ok(await app.budgets.statistics(req.auth, req.params.id, only));
    },
  );

  app.get(
    '/databudget/findByShipId',
    {
      schema: {
        tags,
        summary: "A ship's own budget (null: it follows its organisation's default)",
        security,
        querystring: Type.Object({ shipId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Envelope(Type.Union([DataBudgetSetting, Type.Null()])), ...errors },
      },
    },
    async (req) => ok(await app.budgets.shipSetting(req.auth, req.query.shipId)),
  );

  app.post(
    '/databudget/update',
    {
      schema: {
        tags,
        summary: "Set an organisation's default budget (no shipId) or a ship's own (its managers)",
        description:
          'Megabytes (10^6 bytes) per day and per month for live, playback, pictures, backfill (the ship recorder\'s segments refilling gaps in the shore recording; left out: the server\'s default day cap, BACKFILL_DAY_MB) and events (the records and best pictures of what ships\' analysis found; left out: no cap) (null: no cap), and the policy for new live views once the live budget is used up: `lowest`, `stills` or `block`. A day cap larger than the month cap is refused.',
        security,
        body: DataBudgetUpdate,
        response: { 200: Envelope(DataBudgetSetting), ...errors },
      },
    },
    async (req) => ok(await app.budgets.update(req.auth, req.body)),
  );

  app.post(
    '/databudget/delete',
    {
      schema: {
        tags,
        summary: "Remove a ship's own budget (it follows its organisation's default again) or an organisation's default (its managers)",
        security,
        body: DataBudgetDelete,
        response: { 200: Envelope(Type.Null()), ...errors },
      },
    },
    async (req) => {
      await app.budgets.remove(req.auth, req.body);
      return ok(null);
    },
  );

  app.post(
    '/databudget/override',
    {
      schema: {
        tags,
        summary: 'Start live views of a ship its budget blocks, until the end of the ship’s day, giving a reason (logged)',
        security,
        body: BudgetOverrideRequest,
        response: { 200: Envelope(BudgetOverride), ...errors, 409: ErrorEnvelope },
      },
    },
    async (req) => ok(await app.budgets.override(req.auth, req.body)),
  );

  app.get(
    '/databudget/overrides/:id',
    {
      schema: {
        tags,
        summary: 'Overrides of blocked ships in an organisation and its sub-organisations: who, when, why, which ship; newest first',
        security,
        params: OrgIdParam,
        response: { 200: Envelope(Type.Array(BudgetOverride)), ...errors },
      },
    },
    async (req) => ok(await app.budgets.overrides(req.auth, req.params.id)),
  );
};

export default routes;
