import { and, asc, eq, ilike, inArray, ne, or } from 'drizzle-orm';
import { CHANNEL_SEARCH_LIMIT, type ChannelMatch, type ChannelSearchResult } from '@ship-cctv/protocol';
import type { Db } from '../db/client.ts';
import * as t from '../db/schema.ts';
import { badRequest } from '../lib/envelope.ts';
import { escapeLike } from '../lib/sql-like.ts';
import type { Access } from './access.ts';
import { visibleSubtreeOrgIds } from '../orgs/org-tree.ts';


/**
 * Channels of an organisation (and its sub-organisations) whose name, or a camera's name, holds
 * `name`, case-insensitively: what the source tree needs to find a channel of a ship it has not
 * expanded (and so not loaded) yet. Blocked channels stay hidden, as in getChannel's tree.
 */
export async function searchChannels(db: Db, access: Access, orgId: string, name: string, limit = CHANNEL_SEARCH_LIMIT): Promise<ChannelSearchResult> {
  const query = name.trim();
  if (!query) throw badRequest('The search name is empty');
  const orgIds = visibleSubtreeOrgIds(access, orgId);
  if (orgIds.length === 0) return { orgId, name: query, matches: [], truncated: false };
  const pattern = `%${escapeLike(query)}%`;

  const cameraHit = db.select({ channelId: t.cameras.channelId }).from(t.cameras).where(ilike(t.cameras.name, pattern));
  const channels = await db
    .select({ shipId: t.channels.shipId, channelId: t.channels.id, channelName: t.channels.name })
    .from(t.channels)
    .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
    .where(and(inArray(t.ships.orgId, orgIds), ne(t.channels.block, 1), or(ilike(t.channels.name, pattern), inArray(t.channels.id, cameraHit))))
    .orderBy(asc(t.ships.sort), asc(t.ships.id), asc(t.channels.sort), asc(t.channels.id))
    .limit(limit + 1);
  const truncated = channels.length > limit;
  const kept = channels.slice(0, limit);

  const cameras =
    kept.length === 0
      ? []
      : await db
          .select({ id: t.cameras.id, channelId: t.cameras.channelId })
          .from(t.cameras)
          .where(and(inArray(t.cameras.channelId, kept.map((c) => c.channelId)), ilike(t.cameras.name, pattern)))
          .orderBy(asc(t.cameras.sort), asc(t.cameras.id));
  const cameraIds = new Map<string, string[]>();
  for (const camera of cameras) cameraIds.set(camera.channelId, [...(cameraIds.get(camera.channelId) ?? []), camera.id]);

  const matches: ChannelMatch[] = kept.map((c) => ({ ...c, cameraIds: cameraIds.get(c.channelId) ?? [] }));
  return { orgId, name: query, matches, truncated };
}
