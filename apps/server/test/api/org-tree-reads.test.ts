import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Carousel, type MediaServerMessage, PATHS, TOKEN_HEADER } from '@ship-cctv/protocol';
import { buildApp, type App } from '../../src/app.ts';
import { organizations } from '../../src/core/db/schema.ts';
import { loadAccess } from '../../src/core/orgs/access.ts';
import { TEST_JWT_SECRET, TEST_METRICS_TOKEN, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { type QueryLog, queryLog, touchingOrganisations } from '../helpers/query-log.ts';

/**
 * The organisation tree is read once per request, with the caller's access, and every check, name
 * and subtree of that request comes from it: the statements each request issues are logged and
 * those touching the organisations table counted. (On the embedded database each such read runs on
 * the server's main thread.)
 */
describe('the organisations table, read once per request', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let log: QueryLog;
  let app: App;
  let demo: string;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    log = queryLog(database.url as string);
    app = await buildApp({ seedDemo: true, database: log.database, metricsToken: TEST_METRICS_TOKEN, jwtSecret: TEST_JWT_SECRET, budgets: { flushMs: 3_600_000 } });
    await app.ready();
    demo = (await logon(app, 'demo')).token;
    // Budgets on both paths of the statistics: an organisation default, and a ship following its link's policy.
    const update = (payload: object) => app.inject({ method: 'POST', url: '/api/v1/cctv/databudget/update', headers: { [TOKEN_HEADER]: demo }, payload });
    const caps = { live: { dayMb: 100 }, playback: {}, pictures: {} };
    expect((await update({ orgId: 'blueocean', policy: 'lowest', caps })).statusCode).toBe(200);
    expect((await update({ orgId: 'blueocean', shipId: 'S1002', policy: 'link', caps })).statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await log?.close();
    await database?.close();
  });

  /** A request as the demo manager: its status and the statements it made against the organisations table. */
  const organisationReads = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const { result, statements } = await log.during(() => app.inject({ method, url, headers: { [TOKEN_HEADER]: demo }, ...(payload ? { payload } : {}) }));
    expect(result.statusCode, result.body).toBe(200);
    // The request did reach the database (its session, its data): the log sees it.
    expect(statements.length).toBeGreaterThan(1);
    return touchingOrganisations(statements);
  };

  it('a budget-statistics request reads the organisations once (the access), with defaults, link policies and the editor flag', async () => {
    const reads = await organisationReads('GET', '/api/v1/cctv/statistics/dataBudget/blueocean');
    expect(reads).toHaveLength(1);
    // The one read is the whole tree, not a lookup of one organisation.
    expect(reads[0]).not.toMatch(/\bwhere\b/i);
  });

  it('the ship tree, ship counts, a ship’s definitions and link policies read them once too', async () => {
    expect(await organisationReads('GET', '/api/v1/cctv/monitor/getOrgShipTreeUnion')).toHaveLength(1);
    expect(await organisationReads('GET', '/api/v1/cctv/statistics/shipsAndChannels/blueocean')).toHaveLength(1);
    expect(await organisationReads('GET', '/api/v1/cctv/shipGroup/ship/list?orgId=blueocean&shipId=S1001')).toHaveLength(1);
    expect(await organisationReads('GET', '/api/v1/cctv/linkPolicy/blueocean-tankers')).toHaveLength(1);
    expect(await organisationReads('GET', '/api/v1/cctv/playbackautoshutdown/findByOrgId?orgID=blueocean')).toHaveLength(1);
  });

  it('a recordings query by organisation and camera reads them once, in the access, not in the route', async () => {
    expect(await organisationReads('POST', '/api/v1/cctv/record/complexQuery/1/10', { orgId: 'blueocean', cameraId: 'S1001-C01-1' })).toHaveLength(1);
  });

  it('a carousel task of an organisation is saved, shown and listed with one read each', async () => {
    const save = { name: 'Bridges', orgId: 'blueocean', layout: 4, minutes: 2, channelIds: ['S1001-C01', 'S1002-C01'], mode: 'channels' };
    const { result, statements } = await log.during(() => app.inject({ method: 'POST', url: '/api/v1/cctv/carousel/add2', headers: { [TOKEN_HEADER]: demo }, payload: save }));
    expect(result.statusCode, result.body).toBe(200);
    expect(touchingOrganisations(statements)).toHaveLength(1);
    const made = result.json<{ data: Carousel }>().data;
    expect(await organisationReads('GET', `/api/v1/cctv/carousel/info2/${made.id}`)).toHaveLength(1);
    expect(await organisationReads('GET', '/api/v1/cctv/carousel/task/list?orgId=blueocean')).toHaveLength(1);
  });

  it('resolving a live view (camera, definitions, data budget) asks nothing of the table beyond the access it is given', async () => {
    const access = await loadAccess(log.database.db, 'u-demo');
    const { result, statements } = await log.during(() => app.live.resolve(access, 'S1002-C01-1', undefined));
    expect(result.shipId).toBe('S1002');
    expect(statements.length).toBeGreaterThan(0);
    expect(touchingOrganisations(statements)).toEqual([]);
  });

  it('each play on a media socket sees the organisations as they are then, not as when the socket opened', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.media}?token=${encodeURIComponent(demo)}`);
    const waits: number[] = [];
    let heard: (() => void) | undefined;
    ws.on('message', (data, binary) => {
      if (binary) return;
      const m = JSON.parse(String(data)) as MediaServerMessage;
      if (m.type === 'status' && m.state === 'starting') {
        waits.push(m.waitSeconds ?? -1);
        heard?.();
      }
    });
    const play = () =>
      new Promise<void>((resolve) => {
        heard = resolve;
        ws.send(JSON.stringify({ type: 'play', mode: 'live', cameraId: 'S1002-C01-1' }));
      });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    try {
      await play();
      // Blue Ocean (S1002's organisation) now asks its viewers to wait longer.
      await log.database.db.update(organizations).set({ waitTimeSeconds: 31 }).where(eq(organizations.id, 'blueocean'));
      await play();
    } finally {
      ws.close();
    }
    expect(waits).toEqual([8, 31]);
  });
});
