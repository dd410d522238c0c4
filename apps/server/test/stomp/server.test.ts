import type { IMessage } from '@stomp/stompjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FORBIDDEN_MESSAGE, type StompServerOptions } from '../../src/core/bus/stomp-server.ts';
import { chooseSubprotocol } from '../../src/core/http/websocket.ts';
import type { IncomingMessage } from 'node:http';
import type { Client } from '@stomp/stompjs';
import { WebSocket } from 'ws';
import { Inbox, type Principal, RawClient, type TestStomp, connected, observe, startStomp, stompClient, subscribe } from './helpers.ts';

let server: TestStomp;
const clients: Client[] = [];
const raws: RawClient[] = [];

async function start(opts: Partial<StompServerOptions<Principal, IncomingMessage>> = {}): Promise<TestStomp> {
  server = await startStomp(opts);
  return server;
}

function client(config: Parameters<typeof stompClient>[1] = {}): Client {
  const c = stompClient(server.url, config);
  clients.push(c);
  return c;
}

async function raw(protocols?: string[]): Promise<RawClient> {
  const r = await RawClient.open(server.url, protocols);
  raws.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.deactivate({ force: true })));
  for (const r of raws.splice(0)) r.ws.terminate();
  await server?.close();
});

describe('connecting', () => {
  beforeEach(() => start());

  it('negotiates STOMP 1.2 over v12.stomp with 1000 ms heart-beats both ways', async () => {
    const c = client();
    const frame = await connected(c);
    expect(frame.headers.version).toBe('1.2');
    expect(frame.headers['heart-beat']).toBe('1000,1000');
    expect(frame.headers.session).toMatch(/\S/);
    expect((c.webSocket as unknown as WebSocket).protocol).toBe('v12.stomp');
    expect(server.stomp.connectionCount()).toBe(1);
  });

  it('accepts the STOMP command like CONNECT', async () => {
    const r = await raw();
    r.send({ command: 'STOMP', headers: { 'accept-version': '1.1,1.2', host: 'x', passcode: 'token-raw' } });
    expect((await r.frames.next()).command).toBe('CONNECTED');
  });

  it('refuses a bad token with an ERROR and closes', async () => {
    const c = client({ connectHeaders: { passcode: 'nope' } });
    const seen = observe(c);
    const error = await seen.errors.next();
    expect(error.headers.message).toBe('Authentication failed');
    await seen.closes.next();
    expect(server.stomp.connectionCount()).toBe(0);
  });

  it('does not leak an unexpected authentication error', async () => {
    await server.close();
    await start({
      authenticate: () => Promise.reject(new Error('database password is hunter2')),
    });
    const r = await raw();
    const error = await r.connect();
    expect(error.command).toBe('ERROR');
    expect(error.headers.message).toBe('Authentication failed');
    expect(error.body.toString()).not.toContain('hunter2');
    await r.closed;
  });

  it('refuses a client that does not speak 1.2, naming the version it does', async () => {
    const r = await raw();
    const error = await r.connect({ 'accept-version': '1.0,1.1' });
    expect(error.command).toBe('ERROR');
    expect(error.headers.version).toBe('1.2');
    await r.closed;
  });

  it('refuses an invalid heart-beat header', async () => {
    const r = await raw();
    const error = await r.connect({ 'heart-beat': 'often' });
    expect(error.headers.message).toBe('Invalid heart-beat header');
  });

  it('refuses a second CONNECT', async () => {
    const r = await raw();
    expect((await r.connect()).command).toBe('CONNECTED');
    expect((await r.connect()).headers.message).toBe('Already connected');
  });

  it('refuses any frame before CONNECT', async () => {
    const r = await raw();
    r.send({ command: 'SUBSCRIBE', headers: { id: '0', destination: '/public/a', receipt: 'early' } });
    const error = await r.frames.next();
    expect(error.command).toBe('ERROR');
    expect(error.headers.message).toBe('SUBSCRIBE before CONNECT');
    expect(error.headers['receipt-id']).toBe('early');
    expect(await r.closed).toBe(1002);
  });

  it('chooses v12.stomp only when offered', async () => {
    expect(chooseSubprotocol(new Set(['v10.stomp', 'v11.stomp', 'v12.stomp']))).toBe('v12.stomp');
    expect(chooseSubprotocol(new Set(['v11.stomp']))).toBe(false);
    expect(chooseSubprotocol(new Set())).toBe(false);
    const r = await raw([]);
    expect(r.ws.protocol).toBe('');
    expect((await r.connect()).command).toBe('CONNECTED');
  });
});

describe('subscriptions', () => {
  beforeEach(() => start());

  it('delivers published messages with the MESSAGE headers', async () => {
    const c = client();
    await connected(c);
    const inbox = new Inbox<IMessage>();
    const id = await subscribe(c, '/public/shipStatus/蓝海之星', inbox);
    expect(server.stomp.subscriberCount('/public/shipStatus/蓝海之星')).toBe(1);
    expect(server.stomp.destinations()).toEqual(['/public/shipStatus/蓝海之星']);

    const body = JSON.stringify({ status: 'VSAT', quality: 90, udpConnectionStats: { duplex: 'BOTH' } });
    expect(server.stomp.publish('/public/shipStatus/蓝海之星', body)).toBe(1);
    expect(server.stomp.publish('/public/elsewhere', body)).toBe(0);
    const m = await inbox.next();
    expect(m.body).toBe(body);
    expect(m.headers.destination).toBe('/public/shipStatus/蓝海之星');
    expect(m.headers.subscription).toBe(id);
    expect(m.headers['content-type']).toBe('application/json');
    expect(m.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    server.stomp.publish('/public/shipStatus/蓝海之星', '{}');
    const second = await inbox.next();
    expect(second.headers['message-id']).not.toBe(m.headers['message-id']);
  });

  it('fans out to every subscription of a destination, across connections', async () => {
    const a = client();
    const b = client({ connectHeaders: { passcode: 'token-bob' } });
    await Promise.all([connected(a), connected(b)]);
    const inA1 = new Inbox<IMessage>();
    const inA2 = new Inbox<IMessage>();
    const inB = new Inbox<IMessage>();
    await subscribe(a, '/public/x', inA1);
    await subscribe(a, '/public/x', inA2);
    await subscribe(b, '/public/x', inB);
    expect(server.stomp.publish('/public/x', '{"n":1}')).toBe(3);
    for (const inbox of [inA1, inA2, inB]) expect((await inbox.next()).body).toBe('{"n":1}');
  });

  it('sends a RECEIPT for SUBSCRIBE, UNSUBSCRIBE and DISCONNECT', async () => {
    const r = await raw();
    await r.connect();
    r.send({ command: 'SUBSCRIBE', headers: { id: 's', destination: '/public/a', receipt: 'sub-1' } });
    expect((await r.frames.next()).headers['receipt-id']).toBe('sub-1');
    r.send({ command: 'UNSUBSCRIBE', headers: { id: 's', receipt: 'unsub-1' } });
    expect((await r.frames.next()).headers['receipt-id']).toBe('unsub-1');
    r.send({ command: 'DISCONNECT', headers: { receipt: 'bye' } });
    const receipt = await r.frames.next();
    expect(receipt.command).toBe('RECEIPT');
    expect(receipt.headers['receipt-id']).toBe('bye');
    expect(await r.closed).toBe(1000);
  });

  it('disconnects a stompjs client with its DISCONNECT receipt', async () => {
    const c = client();
    await connected(c);
    const disconnected = new Promise<string | undefined>((resolve) => {
      c.onDisconnect = (frame) => resolve(frame.headers['receipt-id']);
    });
    await c.deactivate();
    expect(await disconnected).toMatch(/^close-/);
    await vi.waitFor(() => expect(server.stomp.connectionCount()).toBe(0));
  });

  it('stops delivery after UNSUBSCRIBE', async () => {
    const c = client();
    await connected(c);
    const gone = new Inbox<IMessage>();
    const kept = new Inbox<IMessage>();
    const id = await subscribe(c, '/public/gone', gone);
    await subscribe(c, '/public/kept', kept);
    const receipt = new Promise<void>((resolve) => c.watchForReceipt('u', () => resolve()));
    c.unsubscribe(id, { receipt: 'u' });
    await receipt;
    expect(server.stomp.subscriberCount('/public/gone')).toBe(0);
    expect(server.stomp.publish('/public/gone', '{"late":true}')).toBe(0);
    server.stomp.publish('/public/kept', '{"kept":true}');
    // Frames on one socket arrive in order: once the later message is in, the earlier one would be too.
    expect((await kept.next()).body).toBe('{"kept":true}');
    expect(gone.size).toBe(0);
  });

  it('refuses an unauthorised subscription with ERROR, receipt-id and close', async () => {
    const c = client();
    const seen = observe(c);
    await seen.connected;
    c.subscribe('/private/bob', () => {}, { receipt: 'want-bob' });
    const error = await seen.errors.next();
    expect(error.headers.message).toBe(FORBIDDEN_MESSAGE);
    expect(error.headers['receipt-id']).toBe('want-bob');
    await seen.closes.next();
    expect(server.stomp.subscriberCount('/private/bob')).toBe(0);
  });

  it('allows a principal its own private destination', async () => {
    const c = client();
    await connected(c);
    const inbox = new Inbox<IMessage>();
    await subscribe(c, '/private/alice', inbox);
    server.stomp.publish('/private/alice', '{"for":"alice"}');
    expect((await inbox.next()).body).toBe('{"for":"alice"}');
  });

  it('refuses a duplicate subscription id', async () => {
    const c = client();
    const seen = observe(c);
    await seen.connected;
    c.subscribe('/public/a', () => {}, { id: 'same' });
    c.subscribe('/public/b', () => {}, { id: 'same' });
    const error = await seen.errors.next();
    expect(error.headers.message).toBe('Subscription id same is already in use');
    await seen.closes.next();
    expect(server.stomp.destinations()).toEqual([]);
  });

  it('refuses SUBSCRIBE without id or destination, and ack modes other than auto', async () => {
    for (const [headers, message] of [
      [{ destination: '/public/a' }, 'SUBSCRIBE needs an id header'],
      [{ id: '1' }, 'SUBSCRIBE needs a destination header'],
      [{ id: '1', destination: '/public/a', ack: 'client' }, 'ack:client is not supported; use ack:auto'],
    ] as const) {
      const r = await raw();
      await r.connect();
      r.send({ command: 'SUBSCRIBE', headers });
      expect((await r.frames.next()).headers.message).toBe(message);
      await r.closed;
    }
  });

  it('refuses SEND: clients only subscribe', async () => {
    const c = client();
    const seen = observe(c);
    await seen.connected;
    c.publish({ destination: '/public/a', body: 'hi' });
    expect((await seen.errors.next()).headers.message).toBe('SEND is not allowed: clients only subscribe here');
  });

  it('tells listeners when a destination gets its first subscriber and loses its last', async () => {
    const first = new Inbox<string>();
    const last = new Inbox<string>();
    server.stomp.events.on('firstSubscriber', (d) => first.push(d));
    server.stomp.events.on('lastUnsubscribe', (d) => last.push(d));
    const a = client();
    const b = client({ connectHeaders: { passcode: 'token-bob' } });
    await Promise.all([connected(a), connected(b)]);
    const idA = await subscribe(a, '/public/w', new Inbox());
    expect(await first.next()).toBe('/public/w');
    await subscribe(b, '/public/w', new Inbox());
    a.unsubscribe(idA);
    // b's socket going away (not an UNSUBSCRIBE) also counts.
    b.forceDisconnect();
    expect(await last.next()).toBe('/public/w');
    expect(first.size).toBe(0);
    expect(last.size).toBe(0);
    expect(server.stomp.destinations()).toEqual([]);
  });
});

describe('snapshots', () => {
  it('sends the current state right after SUBSCRIBE is accepted, then live messages', async () => {
    await start({ snapshot: (d) => (d === '/public/snap' ? '{"state":"now"}' : undefined) });
    const c = client();
    await connected(c);
    const inbox = new Inbox<IMessage>();
    await subscribe(c, '/public/snap', inbox);
    const snap = await inbox.next();
    expect(snap.body).toBe('{"state":"now"}');
    expect(snap.headers.destination).toBe('/public/snap');
    server.stomp.publish('/public/snap', '{"state":"next"}');
    expect((await inbox.next()).body).toBe('{"state":"next"}');

    const none = new Inbox<IMessage>();
    await subscribe(c, '/public/nothing', none);
    server.stomp.publish('/public/nothing', '{"first":true}');
    expect((await none.next()).body).toBe('{"first":true}');
  });

  it('sends several snapshot bodies in order', async () => {
    await start({ snapshot: () => ['{"camera":1}', '{"camera":2}'] });
    const c = client();
    await connected(c);
    const inbox = new Inbox<IMessage>();
    await subscribe(c, '/public/cams', inbox);
    expect((await inbox.next()).body).toBe('{"camera":1}');
    expect((await inbox.next()).body).toBe('{"camera":2}');
  });

  it('keeps messages published while the snapshot is fetched until after it', async () => {
    let release!: (v: string) => void;
    const asked = new Inbox<string>();
    await start({
      snapshot: (d) => {
        asked.push(d);
        return new Promise<string>((resolve) => (release = resolve));
      },
    });
    const c = client();
    await connected(c);
    const inbox = new Inbox<IMessage>();
    const subscribed = subscribe(c, '/public/slow', inbox);
    await asked.next();
    expect(server.stomp.subscriberCount('/public/slow')).toBe(1);
    server.stomp.publish('/public/slow', '{"v":2}');
    release('{"v":1}');
    await subscribed;
    expect((await inbox.next()).body).toBe('{"v":1}');
    expect((await inbox.next()).body).toBe('{"v":2}');
  });

  it('uses a provider set later and survives one that throws', async () => {
    await start();
    server.stomp.setSnapshotProvider(() => {
      throw new Error('status store down');
    });
    const c = client();
    await connected(c);
    const inbox = new Inbox<IMessage>();
    await subscribe(c, '/public/a', inbox);
    server.stomp.setSnapshotProvider(async () => '{"later":true}');
    await subscribe(c, '/public/b', inbox);
    expect((await inbox.next()).body).toBe('{"later":true}');
  });
});

describe('limits and bad input', () => {
  it('refuses more subscriptions than allowed per connection', async () => {
    await start({ maxSubscriptions: 3 });
    const c = client();
    const seen = observe(c);
    await seen.connected;
    for (let i = 0; i < 4; i++) c.subscribe(`/public/${i}`, () => {});
    expect((await seen.errors.next()).headers.message).toBe('Too many subscriptions: at most 3 per connection');
    await seen.closes.next();
    expect(server.stomp.destinations()).toEqual([]);
  });

  it('answers a malformed frame with ERROR and close, and keeps serving others', async () => {
    await start();
    const good = client();
    await connected(good);
    const inbox = new Inbox<IMessage>();
    await subscribe(good, '/public/a', inbox);

    const r = await raw();
    await r.connect();
    r.send('SUBSCRIBE\nid:1\ndestination:/public/a\nbroken header\n\n\0');
    const error = await r.frames.next();
    expect(error.command).toBe('ERROR');
    expect(error.headers.message).toBe('Header line without a name and colon');
    expect(await r.closed).toBe(1002);

    server.stomp.publish('/public/a', '{"still":"here"}');
    expect((await inbox.next()).body).toBe('{"still":"here"}');
  });

  it('answers an oversized frame with ERROR and close (1009), and keeps serving others', async () => {
    await start({ maxFrameBytes: 4096 });
    const good = client();
    await connected(good);
    const inbox = new Inbox<IMessage>();
    await subscribe(good, '/public/a', inbox);

    const r = await raw();
    await r.connect();
    // Split over messages: the limit applies to the frame, not to one WebSocket message.
    r.send('SEND\ndestination:/public/a\n\n');
    r.send('x'.repeat(3000));
    r.send('x'.repeat(3000));
    const error = await r.frames.next();
    expect(error.headers.message).toBe('Frame is larger than 4096 bytes');
    expect(await r.closed).toBe(1009);

    server.stomp.publish('/public/a', '{"still":"here"}');
    expect((await inbox.next()).body).toBe('{"still":"here"}');
  });

  it('refuses undefined escapes and unknown commands', async () => {
    await start();
    const a = await raw();
    await a.connect();
    a.send('SUBSCRIBE\nid:1\ndestination:/public/\\t\n\n\0');
    expect((await a.frames.next()).headers.message).toMatch(/Invalid escape/);
    const b = await raw();
    await b.connect();
    b.send('FLY\n\n\0');
    expect((await b.frames.next()).headers.message).toBe('Unknown command FLY');
  });

  it('handles frames packed into one message, or split at any point, in order', async () => {
    await start();
    const r = await raw();
    const connect = 'CONNECT\naccept-version:1.2\npasscode:token-raw\n\n\0';
    const sub = 'SUBSCRIBE\nid:a\ndestination:/public/p\nreceipt:1\n\n\0\n';
    r.send(`${connect}\n${sub.slice(0, 20)}`);
    r.send(`${sub.slice(20)}\nSUBSCRIBE\nid:b\ndestination:/public/p\nreceipt:2\n\n\0`);
    expect((await r.frames.next()).command).toBe('CONNECTED');
    expect((await r.frames.next()).headers['receipt-id']).toBe('1');
    expect((await r.frames.next()).headers['receipt-id']).toBe('2');
    expect(server.stomp.subscriberCount('/public/p')).toBe(2);
  });

  it('handles a burst of frames strictly in order while authorisation is slow', async () => {
    await start({
      maxSubscriptions: 1000,
      authorizeSubscribe: () => new Promise((resolve) => setTimeout(() => resolve(true), 1)),
    });
    const r = await raw();
    await r.connect();
    const pause = vi.spyOn(WebSocket.prototype, 'pause');
    // Each in its own message, so the server stops reading for a while (back-pressure) and resumes.
    for (let i = 0; i < 100; i++) {
      r.send({ command: 'SUBSCRIBE', headers: { id: `s${i}`, destination: `/public/${i % 10}` } });
      // An UNSUBSCRIBE right behind a pending SUBSCRIBE must not overtake it.
      if (i % 2 === 1) r.send({ command: 'UNSUBSCRIBE', headers: { id: `s${i}` } });
    }
    r.send({ command: 'UNSUBSCRIBE', headers: { id: 'none', receipt: 'last' } });
    expect((await r.frames.next()).headers['receipt-id']).toBe('last');
    expect(r.frames.size).toBe(0);
    const counts = Array.from({ length: 10 }, (_, i) => server.stomp.subscriberCount(`/public/${i}`));
    expect(counts).toEqual([10, 0, 10, 0, 10, 0, 10, 0, 10, 0]);
    expect(pause).toHaveBeenCalled();
    pause.mockRestore();
  });

  it('closes a socket that never sends CONNECT', async () => {
    await start({ connectTimeoutMs: 50 });
    const r = await raw();
    const error = await r.frames.next();
    expect(error.headers.message).toBe('No CONNECT frame received in time');
    await r.closed;
  });

  it('drops a client that cannot keep up instead of buffering for it', async () => {
    await start({ maxBufferedBytes: 64 * 1024 });
    const fast = client();
    await connected(fast);
    const fastInbox = new Inbox<IMessage>();
    await subscribe(fast, '/public/flood', fastInbox);

    const slow = await raw();
    await slow.connect();
    slow.send({ command: 'SUBSCRIBE', headers: { id: 's', destination: '/public/flood', receipt: 'ok' } });
    await slow.frames.next();
    slow.ws.pause(); // stops reading: the kernel buffers fill, then the server's

    const body = JSON.stringify({ pad: 'x'.repeat(32 * 1024) });
    let rounds = 0;
    while (server.stomp.subscriberCount('/public/flood') === 2 && rounds < 10_000) {
      server.stomp.publish('/public/flood', body);
      rounds++;
      // Lets the sockets drain between publishes, as they would between status updates.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.stomp.subscriberCount('/public/flood')).toBe(1);
    expect(server.stomp.connectionCount()).toBe(1);
    slow.ws.resume();
    await slow.closed;
    // The fast client got every message, then keeps getting new ones.
    server.stomp.publish('/public/flood', '{"end":true}');
    for (let i = 0; i < rounds; i++) expect((await fastInbox.next()).body).toBe(body);
    expect((await fastInbox.next()).body).toBe('{"end":true}');
  });
});

describe('heart-beats', () => {
  it('sends heart-beats at the negotiated interval when the line is quiet', async () => {
    await start({ heartBeat: { outgoingMs: 20, incomingMs: 0 } });
    const r = await raw();
    const connectedFrame = await r.connect({ 'heart-beat': '0,60' });
    expect(connectedFrame.headers['heart-beat']).toBe('20,0');
    const t0 = await r.heartBeats.next();
    const t1 = await r.heartBeats.next();
    // max(20, 60): about 60 ms apart, never at the server's faster 20 ms.
    expect(t1 - t0).toBeGreaterThanOrEqual(45);
  });

  it('sends no heart-beats to a client that asks for none', async () => {
    await start({ heartBeat: { outgoingMs: 10, incomingMs: 0 } });
    const quiet = await raw();
    await quiet.connect({ 'heart-beat': '0,0' });
    const asking = await raw();
    await asking.connect({ 'heart-beat': '0,10' });
    await asking.heartBeats.next();
    await asking.heartBeats.next();
    expect(quiet.heartBeats.size).toBe(0);
  });

  it('drops a silent client after twice the interval plus grace, and keeps one that beats', async () => {
    // Generous grace: a busy test machine may delay the beating client's timer.
    await start({ heartBeat: { outgoingMs: 0, incomingMs: 50 }, heartBeatGraceMs: 150 });
    const silent = await raw();
    await silent.connect({ 'heart-beat': '50,0' });
    const beating = client({ heartbeatOutgoing: 50, heartbeatIncoming: 0, connectHeaders: { passcode: 'token-bob' } });
    await connected(beating);
    const started = Date.now();
    await silent.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(server.stomp.connectionCount()).toBe(1);
    expect(beating.connected).toBe(true);
  });

  it('keeps a stompjs client heart-beating both ways connected past the timeout', async () => {
    await start({ heartBeat: { outgoingMs: 250, incomingMs: 250 }, heartBeatGraceMs: 250 });
    const silent = await raw();
    await silent.connect({ 'heart-beat': '250,0' });
    const c = client({ heartbeatIncoming: 250, heartbeatOutgoing: 250 });
    await connected(c);
    const inbox = new Inbox<IMessage>();
    await subscribe(c, '/public/hb', inbox);
    await silent.closed;
    server.stomp.publish('/public/hb', '{"alive":true}');
    expect((await inbox.next()).body).toBe('{"alive":true}');
  });
});

describe('closing', () => {
  beforeEach(() => start());

  it('closeWhere sends ERROR to matching principals only and closes them', async () => {
    const a = client();
    const b = client({ connectHeaders: { passcode: 'token-bob' } });
    const seenA = observe(a);
    await Promise.all([seenA.connected, connected(b)]);
    const inboxB = new Inbox<IMessage>();
    await subscribe(a, '/public/c', new Inbox());
    await subscribe(b, '/public/c', inboxB);

    expect(server.stomp.closeWhere((p) => p.name === 'alice', { message: 'Session ended', body: '{"code":401}', contentType: 'application/json' })).toBe(1);
    const error = await seenA.errors.next();
    expect(error.headers.message).toBe('Session ended');
    expect(error.headers['content-type']).toBe('application/json');
    expect(error.body).toBe('{"code":401}');
    await seenA.closes.next();
    expect(server.stomp.connectionCount()).toBe(1);
    expect(server.stomp.subscriberCount('/public/c')).toBe(1);
    expect(server.stomp.publish('/public/c', '{}')).toBe(1);
    await inboxB.next();
  });

  it('closes a connection when its principal expires', async () => {
    await server.close();
    await start({ expiry: () => ({ at: Date.now() + 30, error: { message: 'Session expired' } }) });
    const c = client();
    const seen = observe(c);
    await seen.connected;
    expect((await seen.errors.next()).headers.message).toBe('Session expired');
  });

  it('forgets a socket that vanishes without DISCONNECT', async () => {
    const r = await raw();
    await r.connect();
    r.send({ command: 'SUBSCRIBE', headers: { id: '1', destination: '/public/v', receipt: 'x' } });
    await r.frames.next();
    expect(server.stomp.subscriberCount('/public/v')).toBe(1);
    r.ws.terminate();
    await vi.waitFor(() => expect(server.stomp.subscriberCount('/public/v')).toBe(0));
    expect(server.stomp.connectionCount()).toBe(0);
  });

  it('close() closes every socket as going away and refuses new ones', async () => {
    const r1 = await raw();
    await r1.connect();
    const r2 = await raw();
    await server.stomp.close();
    expect(await r1.closed).toBe(1001);
    expect(await r2.closed).toBe(1001);
    expect(server.stomp.connectionCount()).toBe(0);
    const late = await raw();
    expect(await late.closed).toBe(1001);
  });
});
