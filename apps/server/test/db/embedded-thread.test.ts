import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_HEADER } from '@ship-cctv/protocol';
import { type Database, openDatabase } from '../../src/core/db/client.ts';
import { PgliteThread, databaseLane } from '../../src/core/db/pglite-thread.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { embeddedTemplate, freshDatabase } from '../helpers/database.ts';

/** The PostgreSQL error under drizzle's DrizzleQueryError (or the error itself). */
function pgError(err: unknown): { code?: string; constraint?: string; message: string } {
  const e = err as Error & { cause?: Error };
  return (e.cause ?? e) as Error & { code?: string; constraint?: string };
}

async function count(database: Database, where = sql`true`): Promise<number> {
  const res = (await database.db.execute(sql`select count(*)::int as n from items where ${where}`)) as unknown as { rows: { n: number }[] };
  return res.rows[0]?.n ?? -1;
}

describe('the embedded database on a thread of its own', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase('pglite');
    await database.db.execute(sql`create table items (id int primary key, name text not null unique)`);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('leaves the event loop free while a query runs: a timer fires during a 3 s query', async () => {
    let running = true;
    const long = database.db.execute(sql`select pg_sleep(3)`).finally(() => {
      running = false;
    });
    // On the main thread PGlite would run the whole sleep before this timer could fire.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running).toBe(true);
    await long;
  });

  it('commits a transaction whose callback resolves and rolls back one whose callback throws', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into items values (1, 'kept')`);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into items values (2, 'undone')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await count(database, sql`id in (1, 2)`)).toBe(1);
    // The rolled-back transaction let go of the database: the next one runs.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into items values (3, 'after')`);
    });
    expect(await count(database, sql`id = 3`)).toBe(1);
  });

  it('runs nested transactions as savepoints: an inner failure undoes only the inner work', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into items values (10, 'outer')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.execute(sql`insert into items values (11, 'inner')`);
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await tx.transaction(async (inner) => {
        await inner.execute(sql`insert into items values (12, 'inner kept')`);
      });
    });
    const res = (await database.db.execute(sql`select id from items where id between 10 and 19 order by id`)) as unknown as { rows: { id: number }[] };
    expect(res.rows.map((r) => r.id)).toEqual([10, 12]);
  });

  it('makes queries outside an open transaction wait for it to end', async () => {
    let outside: Promise<number> | undefined;
    let outsideDone = false;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into items values (20, 'in transaction')`);
      outside = count(database, sql`id = 20`).finally(() => {
        outsideDone = true;
      });
      // The transaction's own queries still run meanwhile.
      await tx.execute(sql`insert into items values (21, 'also in transaction')`);
      await tx.execute(sql`select pg_sleep(0.2)`);
      expect(outsideDone).toBe(false);
    });
    // It ran after the commit, so it saw the row.
    expect(await outside).toBe(1);
  });

  it("keeps PostgreSQL's error code, constraint and message, in and outside transactions", async () => {
    const duplicate = await database.db.execute(sql`insert into items values (1, 'again')`).catch((err: unknown) => err);
    expect(pgError(duplicate)).toMatchObject({ code: '23505', constraint: 'items_pkey' });
    expect(pgError(duplicate).message).toMatch(/duplicate key value violates unique constraint "items_pkey"/);
    const inTransaction = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into items values (30, 'fresh')`);
        await tx.execute(sql`insert into items values (31, 'kept')`);
      })
      .catch((err: unknown) => err);
    expect(pgError(inTransaction)).toMatchObject({ code: '23505', constraint: 'items_name_key' });
    expect(await count(database, sql`id in (30, 31)`)).toBe(0);
    const badSyntax = await database.db.execute(sql`selec 1`).catch((err: unknown) => err);
    expect(pgError(badSyntax).code).toBe('42601');
  });

  it('opens copies of a dump that share nothing with the original', async () => {
    const dump = await database.dump?.();
    expect(dump).toBeInstanceOf(Uint8Array);
    const copy = await openDatabase({ template: dump });
    try {
      expect(await count(copy, sql`id = 1`)).toBe(1);
      await copy.db.execute(sql`insert into items values (40, 'only in the copy')`);
      expect(await count(copy, sql`id = 40`)).toBe(1);
      expect(await count(database, sql`id = 40`)).toBe(0);
    } finally {
      await copy.close();
    }
  });

  it('lets lanes take turns: one lane behind a burst of another waits for a few queries, not the burst', async () => {
    const order: string[] = [];
    const burst = databaseLane.run('burst', () =>
      Array.from({ length: 20 }, (_, i) => database.db.execute(sql`select pg_sleep(0.02)`).then(() => order.push(`burst ${i}`))),
    );
    const other = databaseLane.run('other', () => database.db.execute(sql`select 1`).then(() => order.push('other')));
    await Promise.all([...burst, other]);
    // Two are handed to the thread at once and the burst's lane had its turn first: the other
    // lane's query is answered after at most three of the burst's, not after all twenty.
    expect(order.indexOf('other')).toBeLessThanOrEqual(3);
  });
});

describe('a dying database thread', () => {
  it('rejects the queries waiting for it with the reason, and every query after that', async () => {
    // A heap too small for the rows asked for: the thread runs out of memory and is stopped.
    const thread = await PgliteThread.open({ template: await embeddedTemplate(false), resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 } });
    try {
      const huge = thread.query("select repeat('x', 1000000) as s from generate_series(1, 300)");
      const queued = thread.query('select 1');
      await expect(huge).rejects.toThrow(/the embedded database's thread failed: .*memory/);
      await expect(queued).rejects.toThrow(/the embedded database's thread failed/);
      await expect(thread.query('select 1')).rejects.toThrow(/the embedded database's thread failed/);
    } finally {
      await thread.close();
    }
  });

  it('rejects queries after close, which ends the thread', async () => {
    const thread = await PgliteThread.open({ template: await embeddedTemplate(false) });
    expect((await thread.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }]);
    await thread.close();
    await expect(thread.query('select 1')).rejects.toThrow('the embedded database is closed');
    await thread.close();
  });
});

describe('a server on the embedded database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers /healthz while a long query runs', async () => {
    let running = true;
    const long = t.app.database.db.execute(sql`select pg_sleep(3)`).finally(() => {
      running = false;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(running).toBe(true);
    await long;
  });

  it("answers another user's request while one user's burst of requests waits for the database", async () => {
    const demo = (await logon(t.app, 'demo')).token;
    const duty = (await logon(t.app, 'duty')).token;
    const query = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/cctv/snapshot/complexQuery/1/20', headers: { [TOKEN_HEADER]: token }, payload: { shipId: 'S1001' } });
    let burstAnswered = 0;
    const burst = Array.from({ length: 60 }, () => query(demo).then((res) => (burstAnswered++, res.statusCode)));
    const other = await query(duty);
    const answeredBefore = burstAnswered;
    expect(other.statusCode).toBe(200);
    expect(await Promise.all(burst)).toEqual(Array.from({ length: 60 }, () => 200));
    // Each session's queries wait in a lane of their own: duty's request does not wait for demo's sixty.
    expect(answeredBefore).toBeLessThan(30);
  });
});
