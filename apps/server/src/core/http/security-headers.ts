import fp from 'fastify-plugin';
import { PATHS } from '@ship-cctv/protocol';

/**
 * The web app's Content-Security-Policy. Scripts only from this origin (the Vite build has no
 * inline script); inline styles are allowed because antd's CSS-in-JS writes <style> elements at
 * run time; video plays from MSE blob: URLs; REST, STOMP and the media socket are same-origin.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The API documentation's (Swagger UI at /docs) Content-Security-Policy: its page loads only its
 * own scripts and styles from /docs/static (no inline script), fetches the OpenAPI document from
 * this origin, and shows data: images from its stylesheet; no validator badge from elsewhere
 * (swagger.ts turns it off), no framing. Its styles may be inline: the UI sets some at run time.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers on every answer: no MIME sniffing, no referrer (URLs may carry a handed-over token),
 * no framing (click-jacking); the web app's pages also get the CSP above (the API documentation
 * gets DOCS_CSP from its own plugin, swagger.ts).
 */
export default fp(
  async (app) => {
    app.addHook('onSend', async (req, reply, payload) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
      reply.header('x-frame-options', 'DENY');
      if (req.url.startsWith(PATHS.webBase)) reply.header('content-security-policy', WEB_APP_CSP);
      return payload;
    });
  },
  { name: 'security-headers' },
);
