import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { PRODUCT_VERSION, TOKEN_HEADER } from '@ship-cctv/protocol';
import { DOCS_CSP } from './security-headers.ts';

/** OpenAPI document generated from the route schemas, with Swagger UI at /docs. */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Ship CCTV shore server',
        description: 'REST API of the shore server. Every answer is wrapped as {code, message, data}.',
        version: PRODUCT_VERSION,
      },
      components: {
        securitySchemes: {
          casJwt: { type: 'apiKey', in: 'header', name: TOKEN_HEADER },
        },
      },
    },
  });
  // Its own CSP on every answer under /docs (the page, its assets, the document); no validator:
  // the page would otherwise load a badge from validator.swagger.io.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP, uiConfig: { validatorUrl: null } });
});
