import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '@ship-cctv/server/db';
import { shipAgentKeys, ships } from '@ship-cctv/server/schema';

/** One light ship's identity: its id, name and agent key. */
export interface LightShipIdentity {
  shipId: string;
  name: string;
  key: string;
}

/**
 * Adds `count` ships without cameras to the demo's `blueocean` organisation (the demo operator sees
 * them), each with an agent key, in a few bulk inserts: ids `<prefix>00001`…, names `<prefix> 1`….
 */
export async function addLightShips(database: Database, count: number, prefix = 'L'): Promise<LightShipIdentity[]> {
  const out: LightShipIdentity[] = [];
  for (let i = 1; i <= count; i++) out.push({ shipId: `${prefix}${String(i).padStart(5, '0')}`, name: `${prefix} ${i}`, key: randomBytes(24).toString('base64url') });
  const { db } = database;
  for (let at = 0; at < out.length; at += 1_000) {
    const part = out.slice(at, at + 1_000);
    await db.insert(ships).values(part.map((s, i) => ({ id: s.shipId, name: s.name, orgId: 'blueocean', jsonObject: { version: '3', third: [] }, sort: 1_000 + at + i })));
    await db.insert(shipAgentKeys).values(part.map((s) => ({ shipId: s.shipId, keyHash: createHash('sha256').update(s.key).digest('hex') })));
  }
  return out;
}
