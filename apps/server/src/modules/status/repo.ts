import { eq } from 'drizzle-orm';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';

/** A ship with each of its cameras (and the camera's channel); a ship without cameras comes back once with nulls. */
export function shipWithCameras(
  db: Db,
  shipId: string,
): Promise<{ ship: typeof t.ships.$inferSelect; channelId: string | null; camera: typeof t.cameras.$inferSelect | null }[]> {
  return db
    .select({ ship: t.ships, channelId: t.channels.id, camera: t.cameras })
    .from(t.ships)
    .leftJoin(t.channels, eq(t.channels.shipId, t.ships.id))
    .leftJoin(t.cameras, eq(t.cameras.channelId, t.channels.id))
    .where(eq(t.ships.id, shipId));
}
