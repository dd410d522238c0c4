import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { CODES, PATHS } from '@ship-cctv/protocol';

export interface WebAppOptions {
  webDist?: string | undefined;
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Ship CCTV</title>
<p>The web app has not been built. Run <code>npm run build</code> (or <code>npm run demo</code>) and reload.</p>
<p>网页应用尚未构建。请运行 <code>npm run build</code>（或 <code>npm run demo</code>）后刷新。</p>`;

/**
 * Serves the built web app under /monitor/ with history-style fallback: any /monitor/... path
 * that is not a file answers index.html. Other unknown paths answer 404 in the envelope.
 */
export default fp<WebAppOptions>(async (app, opts) => {
  const dist = opts.webDist;
  const built = dist !== undefined && existsSync(join(dist, 'index.html'));
  const base = PATHS.webBase; // "/monitor/"

  if (built) {
    await app.register(fastifyStatic, {
      root: dist,
      prefix: base,
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz next to each text file (apps/web/build/precompress.ts): a browser
      // that accepts them gets those bytes as they are (about a third of the JavaScript on the wire),
      // others the file itself.
      preCompressed: true,
      // Our own cache-control below: @fastify/static's default (max-age=0) would be written over it.
      cacheControl: false,
      setHeaders: (res, path) => {
        // The answer depends on Accept-Encoding: a shared cache must not give brotli to a browser without it.
        res.setHeader('vary', 'accept-encoding');
        // Vite's assets carry a content hash; index.html must be re-read to pick up a new build.
        if (path.includes(`${join(dist, 'assets')}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else res.setHeader('cache-control', 'no-cache');
      },
    });
  }

  app.get('/', { schema: { hide: true } }, (_req, reply) => reply.redirect(base));
  app.get(base.slice(0, -1), { schema: { hide: true } }, (_req, reply) => reply.redirect(base));

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if ((req.method === 'GET' || req.method === 'HEAD') && path.startsWith(base)) {
      // A missing asset is a real 404; a route of the single-page app gets index.html.
      const last = path.slice(path.lastIndexOf('/') + 1);
      const looksLikeFile = /\.[a-z0-9]+$/i.test(last);
      if (!looksLikeFile) {
        if (!built) return reply.code(CODES.unavailable).type('text/html; charset=utf-8').send(NOT_BUILT);
        reply.header('cache-control', 'no-cache');
        return reply.sendFile('index.html');
      }
    }
    return reply.code(CODES.notFound).send({ code: CODES.notFound, message: `Route ${req.method} ${path} not found`, data: null });
  });
});
