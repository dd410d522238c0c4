import { useEffect, useState } from 'react';
import { dest } from '@ship-cctv/protocol';
import { realtime, type DestinationStore, type MediaListState } from '../lib/realtime/index.ts';

/**
 * Spec §2 (mobile): the list of sources that are live, kept by sourceId. A source that STOMP says
 * went online is added (at the end, so the list reads in the order sources came online); one that
 * went offline is removed; the others keep their place. Answers `prev` itself when nothing changed.
 */
export function updateLiveUsers(prev: readonly string[], statuses: Iterable<readonly [sourceId: string, online: boolean]>): readonly string[] {
  const online = new Set<string>();
  const offline = new Set<string>();
  for (const [sourceId, isOnline] of statuses) (isOnline ? online : offline).add(sourceId);
  const kept = prev.filter((id) => !offline.has(id));
  const added = [...online].filter((id) => !kept.includes(id));
  if (added.length === 0 && kept.length === prev.length) return prev;
  return [...kept, ...added];
}

/** (sourceId, online) of every camera a /mediaList destination has reported. */
export function mediaListStatuses(state: MediaListState | undefined): [string, boolean][] {
  return state ? [...state].map(([sourceId, status]) => [sourceId, status.online]) : [];
}

/**
 * The live-user list of a ship: subscribes to /mediaList of each of its instances while mounted
 * and folds every message into the list. Starts empty (nothing is live until STOMP says so).
 */
export function useLiveUsers(instanceIds: readonly string[], store: DestinationStore = realtime.store): readonly string[] {
  const [list, setList] = useState<readonly string[]>([]);
  const key = [...new Set(instanceIds)].sort().join('\n');
  useEffect(() => {
    setList([]);
    if (!key) return;
    const destinations = key.split('\n').map((id) => dest.mediaList(id));
    const fold = (destination: string) => {
      const state = store.getSnapshot(destination) as MediaListState | undefined;
      setList((prev) => updateLiveUsers(prev, mediaListStatuses(state)));
    };
    const offs = destinations.map((destination) => store.subscribe(destination, () => fold(destination)));
    // Values already known (another view of the same ship subscribed first) count at once.
    for (const destination of destinations) fold(destination);
    return () => {
      for (const off of offs) off();
    };
  }, [key, store]);
  return list;
}
