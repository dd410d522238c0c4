import { readFileSync } from 'node:fs';
import { type CameraConfig, type CameraKind, parseCameras } from '@ship-cctv/agent';
import { syntheticCameras } from './camera/synthetic-camera.ts';

/** A fleet file: what `FLEET_FILE` holds (the shore server writes one for the demo fleet). */
export interface FleetFile {
  shoreUrl: string;
  ships: { shipId: string; key: string; cameras: CameraConfig[] }[];
}

function fail(path: string, what: string): never {
  throw new Error(`${path}: ${what}`);
}

/** Reads and checks a fleet file, naming the field that is wrong; its cameras may be synthetic ones. */
export function readFleetFile(path: string, kinds: readonly CameraKind[] = [syntheticCameras()]): FleetFile {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<FleetFile>;
  if (typeof raw.shoreUrl !== 'string') fail(path, '"shoreUrl" is missing');
  if (!Array.isArray(raw.ships)) fail(path, '"ships" must be a list');
  return {
    shoreUrl: raw.shoreUrl,
    ships: raw.ships.map((s, i) => {
      if (typeof s.shipId !== 'string' || typeof s.key !== 'string') fail(path, `ships[${i}] needs shipId and key`);
      return { shipId: s.shipId, key: s.key, cameras: parseCameras(path, s.cameras, kinds) };
    }),
  };
}
