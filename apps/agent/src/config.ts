import { readFileSync } from 'node:fs';
import { LINK_TYPES, type LinkReport } from '@ship-cctv/protocol';
import type { AgentConfig } from './agent.ts';
import type { CameraKind } from './camera-source.ts';
import { kindOf } from './camera-sources.ts';
import type { CameraConfig, PtzCameraConfig } from './cameras.ts';

export interface AgentFileConfig extends AgentConfig {
  /**
   * The link's kind (type, signal quality, duplex) as configured on a ship without modem
   * telemetry; what the link does — round trip, goodput, loss — the agent measures and reports
   * beside it (uplink/link-meter.ts).
   */
  link?: LinkReport;
  /** Where the ship recorder keeps its recordings and index (default: `agent-data` beside the file). */
  dataDir?: string;
  /**
   * How much the ship recorder keeps: recordings older than maxAgeDays or beyond maxGiB in all are
   * deleted, oldest first; so are they when the disk has less than minFreeGiB free (default 1), so
   * that a full disk never stops recording.
   */
  retention?: { maxAgeDays?: number; maxGiB?: number; minFreeGiB?: number };
}

function fail(path: string, what: string): never {
  throw new Error(`${path}: ${what}`);
}

/** A camera's `ptz`: `{ "onvif": { "hostname", … } }` on a URL camera, `{}` on one whose kind steers itself. */
function ptzConfig(path: string, i: number, selfSteering: boolean, value: unknown): PtzCameraConfig {
  if (typeof value !== 'object' || value === null) fail(path, `cameras[${i}].ptz must be an object`);
  const onvif = (value as PtzCameraConfig).onvif;
  if (onvif === undefined) {
    if (!selfSteering) fail(path, `cameras[${i}].ptz needs "onvif": { "hostname", "port", "username", "password" } (only a camera whose kind steers itself is PTZ without one)`);
    return {};
  }
  if (typeof onvif !== 'object' || onvif === null || typeof onvif.hostname !== 'string' || !onvif.hostname) fail(path, `cameras[${i}].ptz.onvif.hostname is missing`);
  if (onvif.port !== undefined && (!Number.isInteger(onvif.port) || onvif.port < 1 || onvif.port > 65_535)) fail(path, `cameras[${i}].ptz.onvif.port must be a TCP port`);
  for (const key of ['username', 'password', 'profileToken'] as const) {
    if (onvif[key] !== undefined && typeof onvif[key] !== 'string') fail(path, `cameras[${i}].ptz.onvif.${key} must be a string`);
  }
  return { onvif: { hostname: onvif.hostname, ...(onvif.port ? { port: onvif.port } : {}), ...(onvif.username !== undefined ? { username: onvif.username } : {}), ...(onvif.password !== undefined ? { password: onvif.password } : {}), ...(onvif.profileToken ? { profileToken: onvif.profileToken } : {}) } };
}

/**
 * Checks a configuration's `cameras` list (of the file at `path`, named in errors): each camera's
 * source is a URL camera's, or one of `kinds` takes it.
 */
export function parseCameras(path: string, value: unknown, kinds: readonly CameraKind[] = []): CameraConfig[] {
  if (!Array.isArray(value)) fail(path, '"cameras" must be a list');
  return value.map((c: unknown, i) => {
    const cam = c as Partial<CameraConfig>;
    if (typeof cam?.cameraId !== 'string' || !cam.cameraId) fail(path, `cameras[${i}].cameraId is missing`);
    if (typeof cam.source !== 'string' || !cam.source) fail(path, `cameras[${i}].source is missing (a camera URL)`);
    const selfSteering = kindOf(cam.source, kinds)?.steersItself === true;
    return { cameraId: cam.cameraId, source: cam.source, ...(cam.name ? { name: cam.name } : {}), ...(cam.ptz !== undefined ? { ptz: ptzConfig(path, i, selfSteering, cam.ptz) } : {}) };
  });
}

/** Reads and checks one agent's configuration file, naming the field that is wrong; `kinds` are the camera kinds besides the URL camera. */
export function readAgentConfig(path: string, kinds: readonly CameraKind[] = []): AgentFileConfig {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<AgentFileConfig>;
  if (typeof raw.shoreUrl !== 'string' || !/^wss?:\/\//.test(raw.shoreUrl)) fail(path, '"shoreUrl" must be a ws:// or wss:// URL');
  if (typeof raw.shipId !== 'string' || !raw.shipId) fail(path, '"shipId" is missing');
  if (typeof raw.key !== 'string' || !raw.key) fail(path, '"key" is missing');
  const link = raw.link;
  if (link && !LINK_TYPES.includes(link.linkType)) fail(path, `"link.linkType" must be one of ${LINK_TYPES.join(', ')}`);
  if (raw.dataDir !== undefined && (typeof raw.dataDir !== 'string' || !raw.dataDir)) fail(path, '"dataDir" must be a directory path');
  const retention = raw.retention;
  if (retention !== undefined) {
    const positive = (v: unknown) => v === undefined || (typeof v === 'number' && v > 0);
    if (typeof retention !== 'object' || retention === null) fail(path, '"retention" must be {"maxAgeDays": …, "maxGiB": …, "minFreeGiB": …}');
    if (!positive(retention.maxAgeDays)) fail(path, '"retention.maxAgeDays" must be a positive number');
    if (!positive(retention.maxGiB)) fail(path, '"retention.maxGiB" must be a positive number');
    if (!positive(retention.minFreeGiB)) fail(path, '"retention.minFreeGiB" must be a positive number');
  }
  return {
    shoreUrl: raw.shoreUrl,
    shipId: raw.shipId,
    key: raw.key,
    cameras: parseCameras(path, raw.cameras, kinds),
    ...(link ? { link } : {}),
    ...(raw.dataDir ? { dataDir: raw.dataDir } : {}),
    ...(retention ? { retention } : {}),
  };
}
