import { Client, type IMessage } from '@stomp/stompjs';
import WebSocket from 'ws';
import { type App, type AppOptions, buildApp } from '@ship-cctv/server';
import { PATHS } from '@ship-cctv/protocol';
import { freshDatabase } from '../../../../apps/server/test/helpers/database.ts';
import { withTimeout } from './with-timeout.ts';

export interface Shore {
  app: App;
  port: number;
  url: string;
  close(): Promise<void>;
}

const METRICS_TOKEN = 'test-metrics-token';

/** GET /metrics as a scraper with the test shore's token sees it. */
export async function scrapeMetrics(app: App): Promise<string> {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}: ${res.body}`);
  return res.body;
}

/**
 * The product's pace of link checks, for tests whose link is live but slow or whose machine is
 * loaded: `startShore`'s own 1 s silence limit is for tests of a dead link, and a late timer or a
 * slow link's gap between segments goes past it on a live one.
 */
export const PRODUCT_PACE_LIVENESS = { pingMs: 1_000, timeoutMs: 10_000 };

/** A real shore server on a loopback port (`port`, or one the system picks) with the demo fleet, quick to notice a silent link. */
export async function startShore(opts: Partial<AppOptions> = {}, port = 0): Promise<Shore> {
  // Unless the test brings a database, a copy of a demo-seeded one kept on disk: quicker than
  // creating, migrating and seeding one per shore.
  const own = opts.database || opts.databaseUrl || opts.dataDir ? undefined : await freshDatabase('pglite', { seeded: true });
  const app = await withTimeout(
    buildApp({
      seedDemo: true,
      liveness: { pingMs: 200, timeoutMs: 1_000 },
      metricsToken: METRICS_TOKEN,
      jwtSecret: 'test-jwt-secret-of-at-least-32-characters',
      ...opts,
      database: opts.database ?? own,
    }),
    45_000,
    'starting a shore (buildApp)',
  );
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    app,
    port: address.port,
    url: `ws://127.0.0.1:${address.port}`,
    close: async () => {
      await withTimeout(app.close(), 30_000, `closing the shore on port ${address.port}`);
      await own?.close();
    },
  };
}

export async function signIn(app: App, username = 'demo'): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/sys/logon', payload: { username, password: 'demo-pass' } });
  return res.json<{ data: { token: string } }>().data.token;
}

/** A STOMP subscriber that records every message per destination and can wait for one. */
export class StatusWatcher {
  readonly messages = new Map<string, unknown[]>();
  private waiters: { dest: string; pred: (body: never) => boolean; resolve: (b: unknown) => void }[] = [];

  private constructor(readonly client: Client) {}

  static async connect(port: number, token: string): Promise<StatusWatcher> {
    const client = new Client({
      webSocketFactory: () => new WebSocket(`ws://127.0.0.1:${port}${PATHS.stomp}`, ['v12.stomp']),
      connectHeaders: { 'cas-jwt': token },
      heartbeatIncoming: 0,
      heartbeatOutgoing: 0,
      reconnectDelay: 0,
    });
    const watcher = new StatusWatcher(client);
    await new Promise<void>((resolve, reject) => {
      client.onConnect = () => resolve();
      client.onStompError = (f) => reject(new Error(f.headers.message));
      client.activate();
    });
    return watcher;
  }

  subscribe(dest: string): void {
    this.client.subscribe(dest, (m: IMessage) => {
      const body: unknown = JSON.parse(m.body);
      const list = this.messages.get(dest) ?? [];
      list.push(body);
      this.messages.set(dest, list);
      this.waiters = this.waiters.filter((w) => {
        if (w.dest === dest && w.pred(body as never)) {
          w.resolve(body);
          return false;
        }
        return true;
      });
    });
  }

  /** Resolves with the first message (already received or coming) on `dest` that matches. */
  waitFor<T>(dest: string, pred: (body: T) => boolean, timeoutMs = 10_000): Promise<T> {
    const seen = (this.messages.get(dest) ?? []).find((b) => pred(b as T));
    if (seen !== undefined) return Promise.resolve(seen as T);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message on ${dest} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        dest,
        pred: pred as (body: never) => boolean,
        resolve: (b) => {
          clearTimeout(timer);
          resolve(b as T);
        },
      });
    });
  }

  /** Forgets what was received so far, to wait for a later change. */
  clear(): void {
    this.messages.clear();
  }

  close(): Promise<void> {
    return this.client.deactivate();
  }
}
