import { describe, expect, it, vi } from 'vitest';
import { dest } from '@ship-cctv/protocol';
import type { MediaListState } from './reduce.ts';
import { FakeStompClient as FakeClient } from '../../test/fake-stomp.ts';
import { DestinationStore } from './store.ts';


const SHIP = dest.shipStatus('COSCO-1');

describe('DestinationStore', () => {
  it('subscribes on the first listener only and unsubscribes after the last', () => {
    const store = new DestinationStore();
    const client = new FakeClient();
    store.connected(client);
    const off1 = store.subscribe(SHIP, () => undefined);
    const off2 = store.subscribe(SHIP, () => undefined);
    expect(client.log).toEqual([`SUB ${SHIP}`]);
    off1();
    expect(client.log).toEqual([`SUB ${SHIP}`]);
    off2();
    expect(client.log).toEqual([`SUB ${SHIP}`, `UNSUB ${SHIP}`]);
    expect(store.activeDestinations()).toEqual([]);
  });

  it('keeps the latest message and tells listeners; the snapshot is stable between messages', () => {
    const store = new DestinationStore();
    const client = new FakeClient();
    store.connected(client);
    const listener = vi.fn();
    store.subscribe(SHIP, listener);
    client.publish(SHIP, { status: 'FBB', quality: 70 });
    expect(listener).toHaveBeenCalledTimes(1);
    const first = store.getSnapshot(SHIP);
    expect(first).toEqual({ status: 'FBB', quality: 70 });
    expect(store.getSnapshot(SHIP)).toBe(first);
    client.publish(SHIP, { status: 'VSAT', quality: 90 });
    expect(store.getSnapshot(SHIP)).toEqual({ status: 'VSAT', quality: 90 });
  });

  it('waits for the connection, then subscribes what is wanted; resubscribes all after a reconnect', () => {
    const store = new DestinationStore();
    const other = dest.mediaList('COSCO-1');
    store.subscribe(SHIP, () => undefined);
    store.subscribe(other, () => undefined);
    const first = new FakeClient();
    store.connected(first);
    expect(first.log).toEqual([`SUB ${SHIP}`, `SUB ${other}`]);

    store.disconnected();
    const second = new FakeClient();
    store.connected(second);
    expect(second.log).toEqual([`SUB ${SHIP}`, `SUB ${other}`]);
    // Nothing was unsubscribed on the dead socket.
    expect(first.log).toEqual([`SUB ${SHIP}`, `SUB ${other}`]);
  });

  it('reset forgets values and subscriptions (sign-out) and notifies listeners', () => {
    const store = new DestinationStore();
    const client = new FakeClient();
    store.connected(client);
    const listener = vi.fn();
    store.subscribe(SHIP, listener);
    client.publish(SHIP, { status: 'FBB', quality: 70 });
    store.reset();
    expect(client.log).toEqual([`SUB ${SHIP}`, `UNSUB ${SHIP}`]);
    expect(store.getSnapshot(SHIP)).toBeUndefined();
    expect(listener).toHaveBeenCalledTimes(2);
    // The view still mounted gets its subscription back in the next session.
    const next = new FakeClient();
    store.connected(next);
    expect(next.log).toEqual([`SUB ${SHIP}`]);
  });

  it('folds /mediaList messages per camera, live and recording apart', () => {
    const store = new DestinationStore();
    const client = new FakeClient();
    store.connected(client);
    const media = dest.mediaList('COSCO-1');
    store.subscribe(media, () => undefined);
    client.publish(media, { sourceId: 'cam-1', status: 'ONLINE', remoteRecord: null, remoteStart: null, remoteEnd: null, argId: null });
    client.publish(media, { sourceId: 'cam-2', status: 'OFFLINE', remoteRecord: null, remoteStart: null, remoteEnd: null, argId: null });
    const before = store.getSnapshot(media) as MediaListState;
    client.publish(media, { sourceId: 'cam-1', status: 'ONLINE', remoteRecord: true, remoteStart: 1000, remoteEnd: null, argId: '6' });
    const state = store.getSnapshot(media) as MediaListState;
    expect(state.get('cam-1')).toMatchObject({ online: true, recording: true, recordStart: 1000, recordEnd: null, recordConfigId: '6' });
    expect(state.get('cam-1')?.shore.recording).toBe(false);
    expect(state.get('cam-2')?.online).toBe(false);
    // The shore recorder's status of the same camera sits beside the ship's, not over it.
    client.publish(media, { sourceId: 'cam-1', status: 'ONLINE', remoteRecord: true, remoteStart: 2000, remoteEnd: null, argId: 'rc-cam-1', recorder: 'shore' });
    client.publish(media, { sourceId: 'cam-1', status: 'ONLINE', remoteRecord: false, remoteStart: 2000, remoteEnd: 3000, argId: 'rc-cam-1', recorder: 'shore' });
    const both = (store.getSnapshot(media) as MediaListState).get('cam-1');
    expect(both).toMatchObject({ recording: true, recordStart: 1000, recordConfigId: '6' });
    expect(both?.shore).toEqual({ recording: false, recordStart: 2000, recordEnd: 3000, recordConfigId: 'rc-cam-1' });
    // Untouched cameras keep their identity, so their views do not re-render.
    expect(state.get('cam-2')).toBe(before.get('cam-2'));
  });
});
