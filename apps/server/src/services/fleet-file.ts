import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import * as t from '../db/schema.ts';
import type { AgentKeyService } from './agent-keys.ts';

/**
 * Provisions the simulated fleet: issues a fresh agent key for every ship and writes the file the
 * fleet runner (apps/agent) reads, with every camera on the synthetic source. The file holds
 * secrets, so it is written readable by its owner only.
 */
export async function writeFleetFile(db: Db, keys: AgentKeyService, path: string, shoreUrl: string): Promise<number> {
  const rows = await db
    .select({ shipId: t.ships.id, cameraId: t.cameras.id, cameraName: t.cameras.name })
    .from(t.ships)
    .innerJoin(t.channels, eq(t.channels.shipId, t.ships.id))
    .innerJoin(t.cameras, eq(t.cameras.channelId, t.channels.id))
    .orderBy(asc(t.ships.sort), asc(t.ships.id), asc(t.channels.sort), asc(t.cameras.sort));
  const ships = new Map<string, { shipId: string; key: string; cameras: { cameraId: string; source: string; name: string }[] }>();
  for (const r of rows) {
    let ship = ships.get(r.shipId);
    if (!ship) {
      ship = { shipId: r.shipId, key: await keys.issue(r.shipId), cameras: [] };
      ships.set(r.shipId, ship);
    }
    ship.cameras.push({ cameraId: r.cameraId, source: 'synthetic', name: r.cameraName });
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ shoreUrl, ships: [...ships.values()] }, null, 2)}\n`, { mode: 0o600 });
  return ships.size;
}
