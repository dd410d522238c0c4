import { useSyncExternalStore } from 'react';
import type { Camera, Channel, Ship } from '@ship-cctv/protocol';
import { hasSubItems, toPlayableSource, visibleChannels, type ShipChannels } from '../shared/source-tree/index.ts';
import type { PlayableSource } from '../shared/playable-source.ts';

/** One row of the mobile channel list. */
export type ChannelRow =
  /** A channel with one camera, or one camera of a multi-camera channel: long-press plays it. */
  | { kind: 'source'; key: string; channel: Channel; camera: Camera; source: PlayableSource; nested: boolean }
  /** A multi-camera channel: a heading over its cameras (spec §3 sub-items). */
  | { kind: 'group'; key: string; channel: Channel };

/** What the channel list shows for the chosen ship (spec §8 mobile texts for the three states). */
export type ChannelListState =
  | { kind: 'noShip' }
  | { kind: 'loading' }
  | { kind: 'error' }
  | { kind: 'empty' }
  | { kind: 'ready'; rows: ChannelRow[] };

/** i18n key of each message state; the texts are the spec's verbatim. */
export const LIST_TEXT_KEYS = {
  noShip: 'mobile.source.shipPrompt',
  loading: 'sourceTree.channelsLoading',
  empty: 'sourceTree.channelsEmpty',
  error: 'sourceTree.channelsFailed',
} as const satisfies Record<Exclude<ChannelListState['kind'], 'ready'>, string>;

/** The list for a ship and its channels' loading state (undefined: not asked yet, i.e. loading). */
export function channelListState(ship: Ship | undefined, loaded: ShipChannels | undefined): ChannelListState {
  if (!ship) return { kind: 'noShip' };
  if (!loaded || loaded.status === 'loading') return { kind: 'loading' };
  if (loaded.status === 'error') return { kind: 'error' };
  const rows: ChannelRow[] = [];
  for (const channel of visibleChannels(loaded.channels)) {
    if (channel.cameras.length === 0) continue;
    if (hasSubItems(channel)) {
      rows.push({ kind: 'group', key: `channel:${channel.id}`, channel });
      for (const camera of channel.cameras) rows.push(sourceRow(ship, channel, camera, loaded.waitTime, true));
    } else if (channel.cameras[0]) {
      rows.push(sourceRow(ship, channel, channel.cameras[0], loaded.waitTime, false));
    }
  }
  return rows.length === 0 ? { kind: 'empty' } : { kind: 'ready', rows };
}

function sourceRow(ship: Ship, channel: Channel, camera: Camera, waitTime: number, nested: boolean): ChannelRow {
  return { kind: 'source', key: `camera:${camera.id}`, channel, camera, source: toPlayableSource(ship, channel, camera, waitTime), nested };
}

/** Spec §2: the picked ship if it is one of the organisation's, else the only one, else none. */
export function resolveSelectedShip(ships: readonly Ship[], picked: string | null): Ship | undefined {
  const chosen = picked ? ships.find((ship) => ship.id === picked) : undefined;
  return chosen ?? (ships.length === 1 ? ships[0] : undefined);
}

/**
 * The ship picked on the phone, per organisation, outside React so the live and the ship-end
 * playback tabs show the same one. Picking another organisation forgets it (spec §2: changing the
 * organisation clears the active ship, link and sources).
 */
let picked: { orgId: string; shipId: string } | null = null;
const listeners = new Set<() => void>();

export function pickShip(orgId: string, shipId: string | null): void {
  const next = shipId ? { orgId, shipId } : null;
  if (next?.orgId === picked?.orgId && next?.shipId === picked?.shipId) return;
  picked = next;
  for (const listener of [...listeners]) listener();
}

export function usePickedShipId(orgId: string | undefined): string | null {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => picked,
    () => picked,
  );
  return current && current.orgId === orgId ? current.shipId : null;
}
