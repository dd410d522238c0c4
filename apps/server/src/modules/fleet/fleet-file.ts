import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db } from '../../core/db/client.ts';
import type { AgentKeyService } from '../../core/ship-link/index.ts';
import { everyCamera } from './repo.ts';

/** The keys an earlier fleet file holds, by ship; none when there is no readable file. */
function keysInFile(path: string): Map<string, string> {
  const found = new Map<string, string>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return found;
  }
  const ships = typeof parsed === 'object' && parsed !== null ? (parsed as { ships?: unknown }).ships : undefined;
  if (!Array.isArray(ships)) return found;
  for (const ship of ships as unknown[]) {
    if (typeof ship !== 'object' || ship === null) continue;
    const { shipId, key } = ship as { shipId?: unknown; key?: unknown };
    if (typeof shipId === 'string' && typeof key === 'string') found.set(shipId, key);
  }
  return found;
}

/**
 * Provisions the simulated fleet and writes the file the fleet runner (apps/agent) reads, with
 * every camera on the synthetic source. A ship keeps the key an earlier file gave it while that key
 * is still valid, so a restarted server does not lock out a fleet that is running; only ships
 * without one get a new key. The file holds secrets, so it is readable by its owner only.
 */
export async function writeFleetFile(db: Db, keys: AgentKeyService, path: string, shoreUrl: string): Promise<number> {
  const earlier = keysInFile(path);
  const rows = await everyCamera(db);
  const ships = new Map<string, { shipId: string; key: string; cameras: { cameraId: string; source: string; name: string; ptz?: Record<string, never> }[] }>();
  for (const r of rows) {
    let ship = ships.get(r.shipId);
    if (!ship) {
      const kept = earlier.get(r.shipId);
      const key = kept !== undefined && (await keys.verify(r.shipId, kept)) ? kept : await keys.issue(r.shipId);
      ship = { shipId: r.shipId, key, cameras: [] };
      ships.set(r.shipId, ship);
    }
    // A channel of type ptz is a synthetic PTZ camera: its picture is a window the operator steers.
    ship.cameras.push({ cameraId: r.cameraId, source: 'synthetic', name: r.cameraName, ...(r.channelType === 'ptz' ? { ptz: {} } : {}) });
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ shoreUrl, ships: [...ships.values()] }, null, 2)}\n`, { mode: 0o600 });
  return ships.size;
}
