import { randomBytes } from 'node:crypto';
import type { IMessage } from '@stomp/stompjs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Carousel, type CarouselStatus, PATHS, TOKEN_HEADER, dest } from '@ship-cctv/protocol';
import { type App, buildApp } from '../../src/app.ts';
import { type Database, openDatabase } from '../../src/core/db/client.ts';
import * as t from '../../src/core/db/schema.ts';
import { TEST_JWT_SECRET, logon } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { Inbox, connected, listenStomp, stompClient, subscribe } from '../stomp/helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DWELL_S = 5;

/**
 * A carousel task with two shore instances on one database and Redis: one instance publishes its
 * pages (not one per instance), a screen on the other instance hears each page once, and when the
 * publishing instance stops, the other takes the task up on the same page sequence.
 */
describe('carousel tasks across instances', () => {
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  let database: Database & { url?: string };
  // Instance B's own connection pool: two instances share the database, not a client.
  let databaseOfB: Database | undefined;
  let a: App;
  let b: App;
  let token: string;

  const call = async <T>(app: App, url: string, payload?: object): Promise<T> => {
    const res = await app.inject({ method: payload ? 'POST' : 'GET', url: `/api/v1/cctv/carousel${url}`, headers: { [TOKEN_HEADER]: token }, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: T }>().data;
  };
  const runJobs = (id: string) => database.db.select().from(t.jobs).where(eq(t.jobs.kind, 'carousel.run')).then((rows) => rows.filter((r) => r.payload.carouselId === id));

  beforeAll(async () => {
    // Several instances need a database server: the machine's PostgreSQL.
    database = await freshDatabase('postgres');
    databaseOfB = await openDatabase({ url: database.url });
    const opts = { database, redisUrl: REDIS_URL, redisPrefix, jwtSecret: TEST_JWT_SECRET, jobs: { pollMs: 100, leaseMs: 3_000 }, carousel: { secondsAllowed: true, prewarmSeconds: 1 } };
    a = await buildApp({ ...opts, seedDemo: true });
    b = await buildApp({ ...opts, database: databaseOfB });
    await a.ready();
    await b.ready();
    token = (await logon(a, 'demo')).token;
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await databaseOfB?.close();
    await database?.close();
  });

  it('one instance publishes each page once; the other takes over when it stops; a screen on either hears the same pages', async () => {
    const made = await call<Carousel>(a, '/add2', {
      name: 'Wall',
      orgId: 'blueocean',
      mode: 'channels',
      layout: 4,
      minutes: 1,
      seconds: DWELL_S,
      channelIds: ['S1001-C01', 'S1001-C02', 'S1001-C03', 'S1001-C04', 'S1002-C01', 'S1002-C02'],
    });
    const client = stompClient(await listenStomp(b, PATHS.stomp), { connectHeaders: { 'cas-jwt': token } });
    await connected(client);
    const inbox = new Inbox<IMessage>();
    await subscribe(client, dest.carousel(made.id), inbox);
    const next = async () => JSON.parse((await inbox.next(DWELL_S * 3_000)).body) as CarouselStatus;
    try {
      const started = await call<CarouselStatus>(a, `/task/start/${made.id}`);
      expect(started).toMatchObject({ state: 'running', page: 0, pageCount: 2 });
      const heard: CarouselStatus[] = [];
      // The start, then the runner's first publication of page 0, then two switches.
      while (heard.filter((s) => s.page === 1).length === 0 || heard.at(-1)?.page !== 0 || heard.length < 3) heard.push(await next());
      const switches = heard.map((s) => `${s.page}@${s.switchAt}`);
      // Each page once from the runner (the start's own publication may repeat the first).
      expect(new Set(switches.slice(1)).size).toBe(switches.length - 1);
      expect(heard.map((s) => s.page).slice(-2)).toEqual([1, 0]);
      expect(heard.at(-1)?.cells.map((c) => c.channelId)).toEqual(['S1001-C01', 'S1001-C02', 'S1001-C03', 'S1001-C04']);
      expect(heard.find((s) => s.page === 1)?.cells.map((c) => c.channelId)).toEqual(['S1002-C01', 'S1002-C02']);
      // Pages every dwell, counted from the start.
      expect(heard.at(-1)?.switchAt).toBe((started.startedAt ?? 0) + 3 * DWELL_S * 1000);

      // One instance holds the task's job.
      const [job] = await runJobs(made.id);
      expect(job).toMatchObject({ state: 'running' });
      const holder = job?.instance === a.jobs.runner.instance ? a : b;
      const other = holder === a ? b : a;
      expect(job?.instance).toBe(holder.jobs.runner.instance);

      // The holder stops (as at a restart): its job goes back to the queue, the other takes it up.
      await holder.jobs.runner.stop();
      await expect.poll(async () => (await runJobs(made.id))[0]?.instance, { timeout: 10_000, interval: 100 }).toBe(other.jobs.runner.instance);
      const after = await next();
      const expectedPage = Math.floor((after.serverTime - (started.startedAt ?? 0)) / (DWELL_S * 1000)) % 2;
      expect(after).toMatchObject({ state: 'running', page: expectedPage, startedAt: started.startedAt });
      holder.jobs.runner.start();

      // Stop: every screen hears it, and the job ends.
      await call(b, `/task/stop/${made.id}`);
      for (let s = await next(); s.state !== 'stopped'; s = await next());
      await expect.poll(async () => (await runJobs(made.id))[0]?.state, { timeout: 10_000, interval: 100 }).toMatch(/cancelled|done/);
      expect(await runJobs(made.id)).toHaveLength(1);
    } finally {
      await client.deactivate();
    }
  }, 90_000);
});
