import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { dest } from '@ship-cctv/protocol';
import { DestinationStore, type StompSubscriber } from '../lib/realtime/index.ts';
import { mediaListStatuses, updateLiveUsers, useLiveUsers } from './live-users.ts';

describe('live-user list (spec §2 mobile): by sourceId, as STOMP says', () => {
  it('adds a source that went online, at the end', () => {
    expect(updateLiveUsers(['a'], [['b', true]])).toEqual(['a', 'b']);
  });

  it('removes a source that went offline, keeping the others in place', () => {
    expect(updateLiveUsers(['a', 'b', 'c'], [['b', false]])).toEqual(['a', 'c']);
  });

  it('keeps one entry per sourceId, and the same list when nothing changed', () => {
    const list = ['a', 'b'];
    expect(updateLiveUsers(list, [['a', true], ['b', true]])).toBe(list);
    expect(updateLiveUsers(list, [['c', false]])).toBe(list);
  });
});

/** A STOMP client the store can subscribe with, delivering messages the test sends. */
function fakeStomp() {
  const handlers = new Map<string, (message: { body: string }) => void>();
  const client: StompSubscriber = {
    connected: true,
    subscribe(destination, callback) {
      handlers.set(destination, callback);
      return { unsubscribe: () => handlers.delete(destination) };
    },
  };
  return { client, send: (destination: string, body: unknown) => handlers.get(destination)?.({ body: JSON.stringify(body) }), handlers };
}

describe('useLiveUsers', () => {
  it('follows /mediaList of the ship’s instances and unsubscribes when done', () => {
    const store = new DestinationStore();
    const stomp = fakeStomp();
    store.connected(stomp.client);
    const { result, unmount } = renderHook(() => useLiveUsers(['SHIP-A'], store));
    expect(result.current).toEqual([]);
    const destination = dest.mediaList('SHIP-A');
    act(() => stomp.send(destination, { sourceId: 'cam-1', status: 'ONLINE', remoteRecord: null }));
    act(() => stomp.send(destination, { sourceId: 'cam-2', status: 'ONLINE', remoteRecord: null }));
    expect(result.current).toEqual(['cam-1', 'cam-2']);
    // A recording status says nothing about being live.
    act(() => stomp.send(destination, { sourceId: 'cam-1', status: 'ONLINE', remoteRecord: true, remoteStart: 1, remoteEnd: 2, argId: 'r' }));
    expect(result.current).toEqual(['cam-1', 'cam-2']);
    act(() => stomp.send(destination, { sourceId: 'cam-1', status: 'OFFLINE', remoteRecord: null }));
    expect(result.current).toEqual(['cam-2']);
    unmount();
    expect(stomp.handlers.has(destination)).toBe(false);
  });

  it('reads (sourceId, online) pairs from the store’s per-camera state', () => {
    expect(mediaListStatuses(undefined)).toEqual([]);
  });
});
