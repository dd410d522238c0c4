import type { Client, IMessage } from '@stomp/stompjs';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CODES, MESSAGES, PATHS, TOKEN_HEADER, dest } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { Inbox, connected, listenStomp, observe, stompClient, subscribe } from './helpers.ts';

/** The live channel of the real shore server: sessions, fleet permissions and the route as wired in buildApp. */
describe('STOMP endpoint of the shore server', () => {
  let t: TestApp;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await build();
    url = await listenStomp(t.app, PATHS.stomp);
  });
  afterAll(() => t?.close());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.deactivate({ force: true })));
  });

  /** Signs in the way the web app does: token in the newOrgToken cookie, empty login and passcode. */
  function webClient(token: string): Client {
    const c = stompClient(url, {
      connectHeaders: { login: '', passcode: '' },
      webSocketFactory: () => new WebSocket(url, ['v12.stomp'], { headers: { cookie: `newOrgToken=${token}` } }),
    });
    clients.push(c);
    return c;
  }

  /** Waits past any snapshot messages for the one with this body. */
  async function nextWithBody(inbox: Inbox<IMessage>, body: string): Promise<IMessage> {
    for (;;) {
      const m = await inbox.next();
      if (m.body === body) return m;
    }
  }

  it('lets a signed-in operator watch a ship of their organisation', async () => {
    const { token } = await logon(t.app, 'demo');
    const c = webClient(token);
    const frame = await connected(c);
    expect(frame.headers['heart-beat']).toBe('1000,1000');
    const destination = dest.shipStatus('蓝海之星');
    const inbox = new Inbox<IMessage>();
    const id = await subscribe(c, destination, inbox);
    expect(t.app.stomp.subscriberCount(destination)).toBe(1);

    const body = JSON.stringify({ status: 'FBB', quality: 77, udpConnectionStats: { duplex: 'BOTH' }, marker: 'integration' });
    expect(t.app.stomp.publish(destination, body)).toBe(1);
    const m = await nextWithBody(inbox, body);
    expect(m.headers.destination).toBe(destination);
    expect(m.headers.subscription).toBe(id);
    expect(m.headers['content-type']).toBe('application/json');
  });

  it('accepts the token in the cas-jwt CONNECT header too', async () => {
    const { token } = await logon(t.app, 'njzsz');
    const c = stompClient(url, { connectHeaders: { [TOKEN_HEADER]: token } });
    clients.push(c);
    await connected(c);
    await subscribe(c, dest.shipStatus('宁江一号'), new Inbox());
  });

  it("refuses a ship of another organisation with the spec's permission message", async () => {
    const { token } = await logon(t.app, 'njzsz');
    const c = webClient(token);
    const seen = observe(c);
    await seen.connected;
    c.subscribe(dest.shipStatus('蓝海之星'), () => {}, { receipt: 'r-forbidden' });
    const error = await seen.errors.next();
    expect(error.headers.message).toBe(MESSAGES.forbidden);
    expect(error.headers['receipt-id']).toBe('r-forbidden');
    await seen.closes.next();
  });

  it('tells the operators of a ship on /budget/{shipName} when its data budget reaches 80 %; other organisations may not listen', async () => {
    const { token } = await logon(t.app, 'njzsz');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cctv/databudget/update',
      headers: { [TOKEN_HEADER]: token },
      payload: { orgId: 'njzsz', shipId: 'S3002', policy: 'stills', caps: { live: { dayMb: 1 }, playback: {}, pictures: {} } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const c = webClient(token);
    await connected(c);
    const inbox = new Inbox<IMessage>();
    await subscribe(c, dest.budget('宁江二号'), inbox);
    t.app.metrics.countLink('S3002', 'up', 'live', 850_000);
    await t.app.flushBudgets();
    expect(JSON.parse((await inbox.next()).body)).toMatchObject({ shipId: 'S3002', purpose: 'live', period: 'day', level: 80, capBytes: 1_000_000, policy: 'stills' });

    const { token: other } = await logon(t.app, 'duty');
    const outsider = webClient(other);
    const seen = observe(outsider);
    await seen.connected;
    outsider.subscribe(dest.budget('宁江二号'), () => {}, { receipt: 'r-budget' });
    expect((await seen.errors.next()).headers.message).toBe(MESSAGES.forbidden);
  });

  it('refuses a bad token with a 401 envelope', async () => {
    const seen = observe(webClient('not-a-token'));
    const error = await seen.errors.next();
    expect(JSON.parse(error.body)).toEqual({ code: CODES.unauthorized, message: MESSAGES.authFailed, data: null });
    await seen.closes.next();
  });

  it('closes the socket at logout (401) and when a newer sign-in displaces the session (402)', async () => {
    const first = await logon(t.app, 'demo');
    const loggedOut = observe(webClient(first.token));
    await loggedOut.connected;
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/sys/logout', headers: { [TOKEN_HEADER]: first.token } });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse((await loggedOut.errors.next()).body)).toMatchObject({ code: CODES.unauthorized });
    await loggedOut.closes.next();

    const second = await logon(t.app, 'demo');
    const displaced = observe(webClient(second.token));
    await displaced.connected;
    await logon(t.app, 'demo');
    const error = await displaced.errors.next();
    expect(error.headers.message).toBe(MESSAGES.displaced);
    expect(JSON.parse(error.body)).toMatchObject({ code: CODES.displaced });
    await displaced.closes.next();
  });
});
