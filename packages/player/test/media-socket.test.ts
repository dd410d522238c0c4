import { beforeEach, describe, expect, it } from 'vitest';
import { MediaSocket, mediaSocketUrl } from '../src/media-socket.ts';
import { FakeSocket } from './fakes.ts';

describe('the media socket', () => {
  beforeEach(() => {
    FakeSocket.instances.length = 0;
  });

  const handlers = () => {
    const seen: string[] = [];
    return {
      seen,
      on: {
        open: () => seen.push('open'),
        text: (t: string) => seen.push(`text:${t}`),
        binary: (b: Uint8Array) => seen.push(`binary:${b.length}`),
        closed: () => seen.push('closed'),
      },
    };
  };

  it('delivers text and bytes of the current socket, and says when the server closed it', () => {
    const socket = new MediaSocket(FakeSocket, () => 'ws://shore/media');
    const h = handlers();
    socket.open(h.on);
    const fake = FakeSocket.instances[0];
    fake?.open();
    expect(socket.isOpen).toBe(true);
    socket.send({ type: 'stop' });
    fake?.receive({ type: 'status', state: 'playing' });
    fake?.receive(new Uint8Array(7));
    fake?.serverClose();
    expect(h.seen).toEqual(['open', 'text:{"type":"status","state":"playing"}', 'binary:7', 'closed']);
    expect(fake?.sent).toEqual([{ type: 'stop' }]);
    expect(socket.connected).toBe(false);
  });

  it('ignores whatever a dropped socket still delivers, and tells the server to stop when asked', () => {
    const socket = new MediaSocket(FakeSocket, () => 'ws://shore/media');
    const first = handlers();
    socket.open(first.on);
    const old = FakeSocket.instances[0];
    old?.open();
    const session = socket.session;
    socket.drop(true);
    expect(old?.sent).toEqual([{ type: 'stop' }]);
    expect(old?.closedByClient).toBe(true);
    expect(socket.session).not.toBe(session);
    const second = handlers();
    socket.open(second.on);
    old?.receive({ type: 'status', state: 'playing' });
    old?.serverClose();
    expect(first.seen).toEqual(['open']);
    expect(second.seen).toEqual([]);
  });

  it('makes ws(s) URLs with the token', () => {
    expect(mediaSocketUrl('https://shore.example/cctvv3-server/media', 'a b')).toBe('wss://shore.example/cctvv3-server/media?token=a+b');
    expect(mediaSocketUrl('http://127.0.0.1:8080/m', undefined)).toBe('ws://127.0.0.1:8080/m');
  });
});
