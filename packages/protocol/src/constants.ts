/** Business constants of the product (spec §9). One source for server, agent and web. */
export const PRODUCT_VERSION = 'V3.5.26';

export const LIMITS = {
  /** Playlist or grid limit. */
  playlistMax: 16,
  defaultGridSize: 4,
  defaultConfigId: 6,
  pictureConfigId: 720,
  sessionHeartbeatMs: 60_000,
  longPressMs: 500,
  socketHeartbeatMs: 1_000,
  socketReconnectMs: 1_000,
  orientationPollMs: 5_000,
  warningToastMs: 3_000,
  languageCookieDays: 1,
  httpTimeoutMs: 40_000,
  minWidthDesktopPx: 1250,
  minWidthMobilePx: 350,
  /** Continuous watching limit before a video pauses (minutes). */
  continuousWatchMinutes: 20,
} as const;

export const PLAYBACK_SPEEDS = [16, 8, 4, 2, 1] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];
export const DEFAULT_REMOTE_SPEED: PlaybackSpeed = 16;

/** Signal colour thresholds (spec §4): quality at or above each bound gets that colour. */
export const SIGNAL_THRESHOLDS = { green: 85, lightGreen: 60, yellow: 40, orange: 30 } as const;

export type SignalColour = 'green' | 'lightGreen' | 'yellow' | 'orange' | 'red' | 'white';

export function signalColour(quality: number | null | undefined): SignalColour {
  if (typeof quality !== 'number' || !Number.isFinite(quality) || quality < 0 || quality > 100) return 'white';
  if (quality >= SIGNAL_THRESHOLDS.green) return 'green';
  if (quality >= SIGNAL_THRESHOLDS.lightGreen) return 'lightGreen';
  if (quality >= SIGNAL_THRESHOLDS.yellow) return 'yellow';
  if (quality >= SIGNAL_THRESHOLDS.orange) return 'orange';
  return 'red';
}

/** Link status values of a ship (spec §4). */
export const LINK_TYPES = [
  'VSAT',
  'FBB',
  'FOURTHG',
  'OFFLINE',
  'DEFAULT',
  'AUTO',
  'UNKNOWN',
  'IRIDIUM',
  'IRIDIUM1',
  'FX',
] as const;
export type LinkType = (typeof LINK_TYPES)[number];

/** Camera source types (spec §3) and the integration key each maps to. */
export const SOURCE_TYPES = {
  '8700': 'hikvision_openapi',
  hkszy: 'marinesat_szy_v1',
  haiweitongszy: 'marinesat_szy_v1',
  chuanhui: 'chuanhui_v1',
  xplus: 'landsea_v3',
  'xplus-remote': 'landsea_v3',
  ditai: 'ditai_v1',
} as const;
export type SourceType = keyof typeof SOURCE_TYPES;
export const SOURCE_TYPE_NAMES = Object.keys(SOURCE_TYPES) as SourceType[];

/** Cookie names the web app and the server share. */
export const COOKIES = {
  token: 'newOrgToken',
  isJump: 'isjump',
  language: 'language',
} as const;

/** Header that carries the session token on every request. */
export const TOKEN_HEADER = 'cas-jwt';

/** Fixed paths of the shore server. */
export const PATHS = {
  webBase: '/monitor/',
  runtimeConfig: '/monitor/static/config-data.json',
  stomp: '/cctvv3-server/cctv/',
  media: '/cctvv3-server/v3/media',
  /** Where ship agents dial in (WebSocket). */
  agentLink: '/cctvv3-server/agent-link',
  apiBase: '/api/v1',
} as const;
