import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { shipAgentKeys, ships } from '../db/schema.ts';

const digest = (key: string) => createHash('sha256').update(key).digest();

/** Per-ship agent keys: issued once per ship (provisioning), checked on every agent connection. */
export class AgentKeyService {
  constructor(private readonly db: Db) {}

  /** Issues a new key for a ship, replacing any earlier one; answers the key (shown once). */
  async issue(shipId: string): Promise<string> {
    const [ship] = await this.db.select({ id: ships.id }).from(ships).where(eq(ships.id, shipId));
    if (!ship) throw new Error(`unknown ship ${shipId}`);
    const key = randomBytes(32).toString('base64url');
    const keyHash = digest(key).toString('hex');
    await this.db
      .insert(shipAgentKeys)
      .values({ shipId, keyHash })
      .onConflictDoUpdate({ target: shipAgentKeys.shipId, set: { keyHash, createdAt: new Date() } });
    return key;
  }

  async verify(shipId: string, key: string): Promise<boolean> {
    const [row] = await this.db.select().from(shipAgentKeys).where(eq(shipAgentKeys.shipId, shipId));
    if (!row) return false;
    const expected = Buffer.from(row.keyHash, 'hex');
    const actual = digest(key);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
