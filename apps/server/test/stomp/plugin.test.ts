import { EventEmitter } from 'node:events';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { Client, IMessage } from '@stomp/stompjs';
import { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODES, MESSAGES, PATHS } from '@ship-cctv/protocol';
import { ApiError } from '../../src/core/http/envelope.ts';
import type { AuthContext, SessionEvents } from '../../src/core/http/auth.ts';
import { OrgTree } from '../../src/core/orgs/org-tree.ts';
import websocketPlugin from '../../src/core/http/websocket.ts';
import stompPlugin from '../../src/core/bus/stomp-plugin.ts';
import { Inbox, connected, listenStomp, observe, stompClient, subscribe } from './helpers.ts';

/**
 * The plugin on a minimal app with stand-ins for the sessions and fleet modules, to pin down the
 * wiring: where the token comes from, how refusals read, and what ends a session's sockets.
 */
function auth(name: string, expiresAt = Date.now() + 3_600_000): AuthContext {
  return {
    userId: `u-${name}`,
    memberOrgIds: [name],
    visibleOrgIds: new Set([name]),
    // The stand-in fleet service below decides subscriptions without the organisation tree.
    orgs: new OrgTree([]),
    sessionId: `sid-${name}`,
    user: { id: `u-${name}`, username: name, displayName: name, role: 'manager', orgIds: [name] },
    expiresAt,
  };
}

let app: FastifyInstance;
let url: string;
let events: EventEmitter<SessionEvents>;
const tokens = new Map<string, AuthContext | ApiError>();
const clients: Client[] = [];

function client(config: Parameters<typeof stompClient>[1] = {}): Client {
  const c = stompClient(url, { connectHeaders: {}, ...config });
  clients.push(c);
  return c;
}

/** A client that signs in the way the web app does: empty login and passcode, token in the cookie. */
function cookieClient(token: string): Client {
  return client({
    connectHeaders: { login: '', passcode: '' },
    webSocketFactory: () => new WebSocket(url, ['v12.stomp'], { headers: { cookie: `newOrgToken=${token}` } }),
  });
}

beforeEach(async () => {
  tokens.clear();
  tokens.set('t-alice', auth('alice'));
  tokens.set('t-bob', auth('bob'));
  tokens.set('t-soon', auth('soon', Date.now() + 300));
  tokens.set('t-displaced', new ApiError(CODES.displaced, MESSAGES.displaced));
  events = new EventEmitter<SessionEvents>();
  const sessions = {
    events,
    async authenticate(token: string | undefined): Promise<AuthContext> {
      const found = token === undefined ? undefined : tokens.get(token);
      if (found instanceof ApiError) throw found;
      if (!found) throw new ApiError(CODES.unauthorized, MESSAGES.authFailed);
      return found;
    },
  };
  const fleet = {
    async canSubscribe(access: AuthContext, destination: string) {
      return destination === `/shipStatus/${access.memberOrgIds[0]}-ship`;
    },
  };
  app = Fastify();
  await app.register(cookie);
  await app.register(websocketPlugin);
  await app.register(stompPlugin);
  // What the sessions and fleet modules give the endpoint when they register.
  app.stompSignIn(sessions);
  app.stompDefaultRule((access, destination) => fleet.canSubscribe(access, destination));
  url = await listenStomp(app, PATHS.stomp);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.deactivate({ force: true })));
  await app.close();
});

describe('stomp plugin', () => {
  it('signs in with the newOrgToken cookie when login and passcode are empty', async () => {
    const c = cookieClient('t-alice');
    await connected(c);
    const inbox = new Inbox<IMessage>();
    await subscribe(c, '/shipStatus/alice-ship', inbox);
    app.stomp.publish('/shipStatus/alice-ship', '{"status":"VSAT"}');
    expect((await inbox.next()).body).toBe('{"status":"VSAT"}');
  });

  it('prefers the cas-jwt header, then the passcode, over the cookie', async () => {
    const c = client({
      connectHeaders: { 'cas-jwt': 't-bob', passcode: 't-alice' },
      webSocketFactory: () => new WebSocket(url, ['v12.stomp'], { headers: { cookie: 'newOrgToken=stale' } }),
    });
    await connected(c);
    // Only bob may subscribe to bob's ship: the session is bob's.
    await subscribe(c, '/shipStatus/bob-ship', new Inbox());

    const p = client({ connectHeaders: { login: '', passcode: 't-alice' } });
    await connected(p);
    await subscribe(p, '/shipStatus/alice-ship', new Inbox());
  });

  it('answers a refused token with the REST envelope as JSON, so the web app signs out', async () => {
    for (const [token, code, message] of [
      ['wrong', CODES.unauthorized, MESSAGES.authFailed],
      ['t-displaced', CODES.displaced, MESSAGES.displaced],
    ] as const) {
      const seen = observe(cookieClient(token));
      const error = await seen.errors.next();
      expect(error.headers.message).toBe(message);
      expect(error.headers['content-type']).toBe('application/json');
      expect(JSON.parse(error.body)).toEqual({ code, message, data: null });
      await seen.closes.next();
    }
  });

  it('asks the fleet whether a subscription is allowed', async () => {
    const c = cookieClient('t-alice');
    const seen = observe(c);
    await seen.connected;
    c.subscribe('/shipStatus/bob-ship', () => {});
    expect((await seen.errors.next()).headers.message).toBe(MESSAGES.forbidden);
  });

  it("closes a session's sockets when the session ends, and only those", async () => {
    const alice = observe(cookieClient('t-alice'));
    const bob = cookieClient('t-bob');
    await Promise.all([alice.connected, connected(bob)]);
    events.emit('ended', { sessionId: 'sid-alice', userId: 'u-alice', reason: 'displaced' });
    const error = await alice.errors.next();
    expect(JSON.parse(error.body)).toMatchObject({ code: CODES.displaced });
    await alice.closes.next();
    expect(app.stomp.connectionCount()).toBe(1);
    expect(bob.connected).toBe(true);

    const bob2 = observe(cookieClient('t-bob'));
    await bob2.connected;
    events.emit('ended', { sessionId: 'sid-bob', userId: 'u-bob', reason: 'logout' });
    expect(JSON.parse((await bob2.errors.next()).body)).toMatchObject({ code: CODES.unauthorized });
  });

  it('closes a connection when its session expires', async () => {
    const seen = observe(cookieClient('t-soon'));
    await seen.connected;
    const error = await seen.errors.next();
    expect(JSON.parse(error.body)).toMatchObject({ code: CODES.unauthorized, message: MESSAGES.authFailed });
  });

  it('answers a plain GET of the path with 404', async () => {
    const res = await app.inject(PATHS.stomp);
    expect(res.statusCode).toBe(404);
  });

  it('stops listening for session ends when the app closes', async () => {
    expect(events.listenerCount('ended')).toBe(1);
    await app.close();
    expect(events.listenerCount('ended')).toBe(0);
  });
});
