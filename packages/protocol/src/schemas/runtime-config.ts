import { Type, type Static } from 'typebox';

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
