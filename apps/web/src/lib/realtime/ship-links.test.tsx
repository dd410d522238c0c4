import { describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import { dest } from '@ship-cctv/protocol';
import { FakeStompClient } from '../../test/fake-stomp.ts';
import { useShipLinks } from './hooks.ts';
import type { ShipLink } from './link.ts';
import { DestinationStore } from './store.ts';

const NAMES = ['蓝海之星', '蓝海明珠'];

function Probe({ store, seen }: { store: DestinationStore; seen: ReadonlyMap<string, ShipLink>[] }) {
  seen.push(useShipLinks(NAMES, store));
  return null;
}

describe('useShipLinks: several ships from the STOMP state the tree shows', () => {
  it('subscribes each ship, changes as soon as a message arrives, and keeps the same map between messages', () => {
    const store = new DestinationStore();
    const client = new FakeStompClient();
    store.connected(client);
    const seen: ReadonlyMap<string, ShipLink>[] = [];
    const view = render(<Probe store={store} seen={seen} />);
    expect(client.log).toEqual(NAMES.map((n) => `SUB ${dest.shipStatus(n)}`));
    expect([...(seen.at(-1)?.values() ?? [])].map((l) => l.linkType)).toEqual(['OFFLINE', 'OFFLINE']);

    act(() => client.publish(dest.shipStatus('蓝海明珠'), { status: 'fbb\n', quality: 70 }));
    expect(seen.at(-1)?.get('蓝海明珠')).toEqual({ linkType: 'FBB', quality: 70 });
    expect(seen.at(-1)?.get('蓝海之星')?.linkType).toBe('OFFLINE');

    const before = seen.at(-1);
    view.rerender(<Probe store={store} seen={seen} />);
    expect(seen.at(-1)).toBe(before);

    view.unmount();
    expect(client.log.filter((l) => l.startsWith('UNSUB'))).toHaveLength(2);
  });
});
