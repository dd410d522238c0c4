import { type APIRequestContext, expect, test } from '@playwright/test';
import { Client, type IFrame } from '@stomp/stompjs';
import WebSocket from 'ws';
import { CODES, MESSAGES, PATHS, dest } from '@ship-cctv/protocol';

/** The spec's text for a refused access (§6), which the STOMP server sends on a refused SUBSCRIBE. */
const FORBIDDEN = 'You do not have permission to do this';

/**
 * The live channel (spec §7) as an operator's client sees it, from Node with @stomp/stompjs against
 * the demo server the config's webServer starts: link status of every demo ship once the simulated
 * fleet is connected, a CONNECT without a token refused, and a subscription to another
 * organisation's ship refused.
 */

interface ShipStatusMessage {
  status: string;
  quality: number;
  udpConnectionStats: { duplex: string };
}
interface TreeNode {
  organizationid: string;
  orgShipTreeNodes: TreeNode[];
  shipList: { id: string; name: string; orgId: string }[];
}

async function logon(request: APIRequestContext, username: string): Promise<string> {
  const res = await request.post('/api/v1/sys/logon', { data: { username, password: 'demo-pass' } });
  expect(res.ok(), `logon ${username}: HTTP ${res.status()}`).toBe(true);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function shipsOf(request: APIRequestContext, token: string): Promise<TreeNode[]> {
  const res = await request.get('/api/v1/cctv/monitor/getOrgShipTreeUnion', { headers: { 'cas-jwt': token } });
  const body = (await res.json()) as { message: string; data: { orgShipTreeNodes: TreeNode[] } };
  expect(body.message).toBe('SUCCESS');
  const all: TreeNode[] = [];
  const walk = (nodes: TreeNode[]) => {
    for (const n of nodes) {
      all.push(n);
      walk(n.orgShipTreeNodes);
    }
  };
  walk(body.data.orgShipTreeNodes);
  return all;
}

function stompClient(baseURL: string | undefined, connectHeaders: Record<string, string>): Client {
  const url = new URL(PATHS.stomp, baseURL);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return new Client({
    webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
    connectHeaders,
    // As the web app: 1000 ms heart-beats both ways, no reconnect here.
    heartbeatIncoming: 1000,
    heartbeatOutgoing: 1000,
    reconnectDelay: 0,
  });
}

/** Resolves with the ERROR frame the server answers with (it then closes the connection). */
function nextError(client: Client): Promise<IFrame> {
  return new Promise((resolve) => {
    client.onStompError = resolve;
  });
}

test.describe('live status over STOMP', () => {
  test('a CONNECT without a token gets an ERROR', async ({ baseURL }) => {
    const client = stompClient(baseURL, {});
    const connected = new Promise<void>((resolve) => {
      client.onConnect = () => resolve();
    });
    const error = nextError(client);
    client.activate();
    try {
      const frame = await Promise.race([error, connected.then(() => undefined)]);
      expect(frame, 'the server accepted a CONNECT without a token').toBeDefined();
      expect(frame?.headers.message).toBe(MESSAGES.authFailed);
      expect(JSON.parse(frame?.body ?? '{}')).toMatchObject({ code: CODES.unauthorized });
    } finally {
      await client.deactivate();
    }
  });

  test("njzsz's SUBSCRIBE to a blueocean ship is refused", async ({ request, baseURL }) => {
    // Read as demo (who sees both organisations) which ships are blueocean's, then sign in as njzsz.
    const blueocean = (await shipsOf(request, await logon(request, 'demo'))).find((n) => n.organizationid === 'blueocean');
    const ship = blueocean?.shipList[0];
    expect(ship, 'a blueocean ship in the demo tree').toBeDefined();
    const njzszToken = await logon(request, 'njzsz');
    expect((await shipsOf(request, njzszToken)).flatMap((n) => n.shipList.map((s) => s.id))).not.toContain(ship?.id);

    const client = stompClient(baseURL, { 'cas-jwt': njzszToken });
    const error = nextError(client);
    await new Promise<void>((resolve) => {
      client.onConnect = () => resolve();
      client.activate();
    });
    try {
      const messages: string[] = [];
      client.subscribe(dest.shipStatus(ship?.name ?? ''), (m) => messages.push(m.body));
      const frame = await error;
      expect(frame.headers.message).toBe(FORBIDDEN);
      // Not even the snapshot of the ship's status leaked before the refusal.
      expect(messages).toEqual([]);
    } finally {
      await client.deactivate();
    }
  });

  test('every demo ship reports a link other than OFFLINE once the simulated fleet is connected', async ({ request, baseURL }) => {
    // The fleet starts after the server; each ship's emulated link may begin in a short outage.
    test.setTimeout(150_000);

    let token = await logon(request, 'demo');
    const ships = (await shipsOf(request, token)).flatMap((n) => n.shipList);
    expect(ships.length).toBeGreaterThan(0);

    const latest = new Map<string, ShipStatusMessage>();
    const seenOnline = new Set<string>();
    const client = stompClient(baseURL, { 'cas-jwt': token });
    // Another test signing in as demo displaces this session: sign in again and resubscribe (the
    // snapshot on SUBSCRIBE gives the current state again).
    client.reconnectDelay = 1000;
    client.beforeConnect = async () => {
      const check = await request.get('/api/v1/sys/valid/token', { params: { token } });
      if (!check.ok()) token = await logon(request, 'demo');
      client.connectHeaders = { 'cas-jwt': token };
    };
    client.onConnect = () => {
      for (const ship of ships) {
        client.subscribe(dest.shipStatus(ship.name), (m) => {
          const body = JSON.parse(m.body) as ShipStatusMessage;
          latest.set(ship.name, body);
          if (body.status !== 'OFFLINE') seenOnline.add(ship.name);
        });
      }
    };
    client.activate();
    try {
      await expect
        .poll(() => ships.map((s) => s.name).filter((name) => !seenOnline.has(name)), {
          message: 'ships never seen with a link other than OFFLINE',
          timeout: 120_000,
          intervals: [1_000],
        })
        .toEqual([]);
      for (const ship of ships) {
        const body = latest.get(ship.name);
        expect(body, ship.name).toMatchObject({ status: expect.any(String), quality: expect.any(Number), udpConnectionStats: { duplex: expect.any(String) } });
        expect(body?.status).toMatch(/^[A-Z0-9]+$/);
      }
    } finally {
      await client.deactivate();
    }
  });
});
