import { Type, type Static } from 'typebox';
import { LIMITS, PATHS, PRODUCT_VERSION } from '../constants.ts';

/** `GET /monitor/static/config-data.json`: what the web app reads once at start. */
export const RuntimeConfig = Type.Object({
  version: Type.String(),
  apiBase: Type.String(),
  stompPath: Type.String(),
  mediaPath: Type.String(),
  httpTimeoutMs: Type.Integer(),
  heartbeatMs: Type.Integer(),
  defaultLanguage: Type.String(),
});
export type RuntimeConfig = Static<typeof RuntimeConfig>;

/**
 * The one set of runtime values: what the server answers, and what the web app runs with when it
 * cannot read them.
 */
export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = {
  version: PRODUCT_VERSION,
  apiBase: PATHS.apiBase,
  stompPath: PATHS.stomp,
  mediaPath: PATHS.media,
  httpTimeoutMs: LIMITS.httpTimeoutMs,
  heartbeatMs: LIMITS.sessionHeartbeatMs,
  defaultLanguage: 'zh-CN',
};
