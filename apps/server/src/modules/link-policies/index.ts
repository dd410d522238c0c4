import fp from 'fastify-plugin';
import { LinkPolicyService } from './link-policy-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Per organisation and link type: which definition a live cell asks for (issue 19 item 4). */
    linkPolicy: LinkPolicyService;
  }
}

export default fp(
  async (app) => {
    app.decorate('linkPolicy', new LinkPolicyService(app.database.db));
  },
  { name: 'link-policy' },
);
