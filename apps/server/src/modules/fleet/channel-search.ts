import { CHANNEL_SEARCH_LIMIT, type ChannelMatch, type ChannelSearchResult } from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import { badRequest } from '../../core/http/envelope.ts';
import type { Access } from '../../core/orgs/access.ts';
import { visibleSubtreeOrgIds } from '../../core/orgs/org-tree.ts';
import { camerasMatching, channelsMatching, containing } from './repo.ts';

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
  const pattern = containing(query);

  const channels = await channelsMatching(db, orgIds, pattern, limit + 1);
  const truncated = channels.length > limit;
  const kept = channels.slice(0, limit);

  const cameras = kept.length === 0 ? [] : await camerasMatching(db, kept.map((c) => c.channelId), pattern);
  const cameraIds = new Map<string, string[]>();
  for (const camera of cameras) cameraIds.set(camera.channelId, [...(cameraIds.get(camera.channelId) ?? []), camera.id]);

  const matches: ChannelMatch[] = kept.map((c) => ({ ...c, cameraIds: cameraIds.get(c.channelId) ?? [] }));
  return { orgId, name: query, matches, truncated };
}
