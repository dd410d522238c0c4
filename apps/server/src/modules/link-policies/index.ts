import fp from 'fastify-plugin';
import { LinkPolicyService } from './link-policy-service.ts';
import linkPolicyRoutes from './routes.ts';

export { LinkPolicyService } from './link-policy-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    linkPolicy: LinkPolicyService;
  }
}

/**
 * Link policies: per organisation and link type, the definition a live cell asks for in each grid
 * and the stills mode. Offers `app.linkPolicy` and the routes under /api/v1/cctv/linkPolicy.
 * Needs the database and sessions.
 */
export default fp(
  async (app) => {
    app.decorate('linkPolicy', new LinkPolicyService(app.database.db));
    await app.register(linkPolicyRoutes, { prefix: '/api/v1/cctv/linkPolicy' });
  },
  { name: 'link-policy', dependencies: ['core-db', 'sessions'] },
);
