import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { type SQL, and, count, eq, getTableColumns, getTableName, is, isNull, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_TYPE_NAMES, cameraSource, type Channel, type OrgShipTreeNode, type ShipsAndChannels } from '@ship-cctv/protocol';
import { type Database, type Db, openDatabase } from '../../src/core/db/client.ts';
import * as schema from '../../src/core/db/schema.ts';
import { DEMO_PASSWORD, demoSatelliteTiers, demoShips } from '../../src/core/db/demo-fleet.ts';
import { seedDemoFleet } from '../../src/core/db/seed.ts';
import { loadAccess } from '../../src/core/orgs/access.ts';
import { FleetService } from '../../src/modules/fleet/fleet-service.ts';
import { type SessionEndReason, SessionService } from '../../src/modules/sessions/session-service.ts';
import { type DatabaseKind, POSTGRES_ADMIN_URL, freshDatabase } from '../helpers/database.ts';

const t = schema;

const journal = JSON.parse(
  readFileSync(new URL('../../src/core/db/migrations/meta/_journal.json', import.meta.url), 'utf8'),
) as { entries: { tag: string }[] };

// Instances sharing a database share a JWT_SECRET.
const sessionOptions = { ttlHours: 1, logonFailures: { maxFailures: 5, windowMs: 60_000, lockMs: 60_000 }, signingKey: { secret: 'one-secret-for-every-instance-0123456789' } };

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** Every table the schema declares. */
const schemaTables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));

/** Row counts of every table of the schema. */
async function tableCounts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of schemaTables) {
    const [row] = await db.select({ n: count() }).from(table);
    out[getTableName(table)] = row?.n ?? -1;
  }
  return out;
}

/** The seeded rows (sessions and settings are runtime state, not seed). */
async function seedCounts(db: Db): Promise<Record<string, number>> {
  const all = await tableCounts(db);
  delete all.sessions;
  delete all.settings;
  return all;
}

/** A PostgreSQL database whose URL the test controls, so several "server instances" can open it. */
async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `shipcctv_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** The driver's error beneath drizzle's wrapper. */
function pgErrorCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.cause?.code ?? e.code;
}

/** What each kind answered, compared at the end. */
const answers = new Map<DatabaseKind, unknown>();

describe.each(['pglite', 'postgres'] as const)('data layer on %s', (kind) => {
  let database: Database;
  let db: Db;
  let firstSeed: boolean;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    db = database.db;
    firstSeed = await seedDemoFleet(db);
  });
  afterAll(() => database?.close());

  it('applies the migrations on a fresh database: every table and column of the schema exists', async () => {
    expect(database.kind).toBe(kind);
    const applied = await rows<{ n: number | string }>(db, sql`select count(*) as n from drizzle.__drizzle_migrations`);
    expect(Number(applied[0]?.n)).toBe(journal.entries.length);

    expect(schemaTables.length).toBeGreaterThanOrEqual(14);
    const columns = await rows<{ table_name: string; column_name: string; is_nullable: string }>(
      db,
      sql`select table_name, column_name, is_nullable from information_schema.columns where table_schema = 'public'`,
    );
    for (const table of schemaTables) {
      const name = getTableName(table);
      const actual = new Map(columns.filter((c) => c.table_name === name).map((c) => [c.column_name, c.is_nullable === 'NO']));
      const declared = new Map(Object.values(getTableColumns(table)).map((c) => [c.name, c.notNull]));
      expect(actual, `columns of ${name} (schema.ts vs migrations)`).toEqual(declared);
    }
    const indexes = await rows<{ indexname: string; indexdef: string }>(
      db,
      sql`select indexname, indexdef from pg_indexes where tablename = 'sessions'`,
    );
    const oneActive = indexes.find((i) => i.indexname === 'sessions_one_active_per_user');
    expect(oneActive?.indexdef).toMatch(/UNIQUE/i);
    expect(oneActive?.indexdef).toMatch(/ended_at IS NULL/i);
  });

  it('seeds the demo fleet on the first call', async () => {
    expect(firstSeed).toBe(true);
    const counts = await seedCounts(db);
    for (const table of ['organizations', 'users', 'memberships', 'ships', 'channels', 'cameras', 'definition_groups', 'definition_models']) {
      expect(counts[table], table).toBeGreaterThan(0);
    }
  });

  it('seeds ≥2 top-level organisations incl. njzsz, and a sub-organisation', async () => {
    const orgs = await db.select().from(t.organizations);
    const top = orgs.filter((o) => o.parentId === null).map((o) => o.id);
    expect(top.length).toBeGreaterThanOrEqual(2);
    expect(top).toContain('njzsz');
    const children = orgs.filter((o) => o.parentId !== null);
    expect(children.length).toBeGreaterThanOrEqual(1);
    for (const c of children) expect(orgs.map((o) => o.id)).toContain(c.parentId);
    // Every user belongs somewhere.
    const members = await db.select().from(t.memberships);
    for (const u of await db.select().from(t.users)) expect(members.some((m) => m.userId === u.id), u.username).toBe(true);
  });

  it('seeds ≥6 ships, each with 2-8 channels, each channel with a camera', async () => {
    const ships = await db.select().from(t.ships);
    expect(ships.length).toBeGreaterThanOrEqual(6);
    const channels = await db.select().from(t.channels);
    const cameras = await db.select().from(t.cameras);
    for (const ship of ships) {
      const own = channels.filter((c) => c.shipId === ship.id);
      expect(own.length, ship.id).toBeGreaterThanOrEqual(2);
      expect(own.length, ship.id).toBeLessThanOrEqual(8);
      for (const c of own) expect(cameras.some((cam) => cam.channelId === c.id), c.id).toBe(true);
    }
    // Each ship has its configuration row.
    const configs = await db.select().from(t.shipConfigs);
    expect(configs.map((c) => c.shipId).sort()).toEqual(ships.map((s) => s.id).sort());
  });

  it('seeds cameras of every source type, one blocked channel, a channel with several cameras', async () => {
    const cameras = await db.select().from(t.cameras);
    const types = new Set(cameras.map((c) => c.sourceType));
    for (const type of ['8700', 'hkszy', 'haiweitongszy', 'chuanhui', 'xplus', 'xplus-remote', 'ditai']) expect(types, type).toContain(type);
    expect([...types].sort()).toEqual([...SOURCE_TYPE_NAMES].sort());

    const blocked = await db.select().from(t.channels).where(eq(t.channels.block, 1));
    expect(blocked).toHaveLength(1);

    const perChannel = new Map<string, number>();
    for (const c of cameras) perChannel.set(c.channelId, (perChannel.get(c.channelId) ?? 0) + 1);
    expect(Math.max(...perChannel.values())).toBeGreaterThanOrEqual(2);
  });

  it('gives every camera a distinct source identity (instance + camera name, as the web app parses other)', async () => {
    const cameras = await db
      .select({ camera: t.cameras, shipName: t.ships.name })
      .from(t.cameras)
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId));
    const identities = cameras.map(({ camera, shipName }) => {
      const { instanceId, cameraName } = cameraSource(camera.sourceType, camera.other, shipName);
      expect(instanceId, camera.id).not.toBe('');
      expect(cameraName, camera.id).not.toBe('');
      return `${instanceId}/${cameraName}`;
    });
    const duplicates = identities.filter((id, i) => identities.indexOf(id) !== i);
    expect(duplicates).toEqual([]);
  });

  it('seeds definition models at ≥3 tiers, with consistent default groups and models', async () => {
    const groups = await db.select().from(t.definitionGroups);
    const models = await db.select().from(t.definitionModels);
    const tiers = new Set(models.map((m) => `${m.width}x${m.height}@${m.frameRate}`));
    expect(tiers.size).toBeGreaterThanOrEqual(3);
    expect(groups.some((g) => models.filter((m) => m.groupId === g.id).length >= 3)).toBe(true);
    // defaultModelId is not a foreign key: check it by hand.
    for (const g of groups) {
      if (g.defaultModelId !== null) expect(models.find((m) => m.id === g.defaultModelId)?.groupId, g.displayName).toBe(g.id);
    }
    // A ship's default group is one of the ship's groups; exactly the ships marked so lack one.
    const links = await db.select().from(t.shipDefinitionGroups);
    const configs = await db.select().from(t.shipConfigs);
    for (const c of configs) {
      const demo = demoShips.find((s) => s.id === c.shipId);
      if (c.defaultGroupId === null) {
        expect(demo?.hasDefault, c.shipId).toBe(false);
      } else {
        expect(demo?.hasDefault, c.shipId).toBe(true);
        expect(links.some((l) => l.shipId === c.shipId && l.groupId === c.defaultGroupId), c.shipId).toBe(true);
      }
    }
    expect(configs.filter((c) => c.defaultGroupId === null).length).toBeGreaterThanOrEqual(1);
  });

  it('seeding twice is a no-op: returns false, counts unchanged', async () => {
    const before = await seedCounts(db);
    expect(await seedDemoFleet(db)).toBe(false);
    expect(await seedCounts(db)).toEqual(before);
  });

  it('moves the satellite tier seeded at 32 kbit/s to the tier’s rate once, leaving a definition an operator changed', async () => {
    const rate = async (id: number) => (await db.select().from(t.definitionModels).where(eq(t.definitionModels.id, id)))[0]?.bitrateKbps;
    // A fresh database gets the tier's rate at once.
    const [h264, av1] = demoSatelliteTiers.map((x) => x.bitrateKbps);
    expect([await rate(11), await rate(12), await rate(13), await rate(14)]).toEqual([h264, av1, h264, av1]);
    expect(demoSatelliteTiers.every((x) => x.bitrateKbps < 32)).toBe(true);
    // A database seeded before: the tier at 32 kbit/s, one of them changed by an operator (to 28).
    await db.update(t.definitionModels).set({ bitrateKbps: 32 }).where(sql`${t.definitionModels.id} in (11, 12, 14)`);
    await db.update(t.definitionModels).set({ bitrateKbps: 28 }).where(eq(t.definitionModels.id, 13));
    await db.delete(t.settings).where(eq(t.settings.key, 'demo.satelliteTiersRetuned'));
    await seedDemoFleet(db);
    expect([await rate(11), await rate(12), await rate(13), await rate(14)]).toEqual([h264, av1, 28, av1]);
    // Once: an operator who sets 32 again afterwards keeps it.
    await db.update(t.definitionModels).set({ bitrateKbps: 32 }).where(eq(t.definitionModels.id, 11));
    await seedDemoFleet(db);
    expect(await rate(11)).toBe(32);
  });

  it('moves the serial sequences past the seeded ids (new rows get fresh ids)', async () => {
    const [maxGroup] = await db.select({ id: sql<number>`max(${t.definitionGroups.id})`.mapWith(Number) }).from(t.definitionGroups);
    const [maxModel] = await db.select({ id: sql<number>`max(${t.definitionModels.id})`.mapWith(Number) }).from(t.definitionModels);
    const [group] = await db.insert(t.definitionGroups).values({ orgId: 'njzsz', displayName: 'Extra' }).returning();
    expect(group?.id).toBeGreaterThan(maxGroup?.id ?? Infinity);
    const [model] = await db
      .insert(t.definitionModels)
      .values({ groupId: group?.id ?? -1, displayName: 'Extra', width: 160, height: 90, frameRate: 1, bitrateKbps: 50 })
      .returning();
    expect(model?.id).toBeGreaterThan(maxModel?.id ?? Infinity);
    // Cascade: deleting the group removes its model.
    await db.delete(t.definitionGroups).where(eq(t.definitionGroups.id, group?.id ?? -1));
    expect(await db.select().from(t.definitionModels).where(eq(t.definitionModels.id, model?.id ?? -1))).toEqual([]);
  });

  it('holds the one-active-session-per-user unique index', async () => {
    const userId = 'u-njzsz';
    const expiresAt = new Date(Date.now() + 3_600_000);
    await db.update(t.sessions).set({ endedAt: new Date(), endReason: 'logout' }).where(and(eq(t.sessions.userId, userId), isNull(t.sessions.endedAt)));

    await db.insert(t.sessions).values({ id: 'idx-1', userId, expiresAt });
    const second = db.insert(t.sessions).values({ id: 'idx-2', userId, expiresAt });
    const err = await second.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, 'a second active session must be refused').toBeDefined();
    expect(pgErrorCode(err)).toBe('23505');

    // Another user's active session is fine, and ended sessions do not count.
    await db.insert(t.sessions).values({ id: 'idx-other', userId: 'u-demo', expiresAt, endedAt: new Date(), endReason: 'logout' });
    await db.update(t.sessions).set({ endedAt: new Date(), endReason: 'displaced' }).where(eq(t.sessions.id, 'idx-1'));
    await db.insert(t.sessions).values({ id: 'idx-2', userId, expiresAt });
    await db.insert(t.sessions).values({ id: 'idx-3', userId, expiresAt, endedAt: new Date(), endReason: 'logout' });
    const active = await db.select().from(t.sessions).where(and(eq(t.sessions.userId, userId), isNull(t.sessions.endedAt)));
    expect(active.map((s) => s.id)).toEqual(['idx-2']);
    await db.update(t.sessions).set({ endedAt: new Date(), endReason: 'logout' }).where(eq(t.sessions.id, 'idx-2'));
  });

  it('SessionService: logon, authenticate, displacement (402) and logout (401)', async () => {
    const svc = new SessionService(db, sessionOptions);
    await svc.init();
    const ended: { sessionId: string; userId: string; reason: SessionEndReason }[] = [];
    svc.events.on('ended', (e) => ended.push(e));

    const before = Date.now();
    const a = await svc.logon('demo', DEMO_PASSWORD, { address: '127.0.0.1', userAgent: 'vitest' });
    expect(a.user).toMatchObject({ id: 'u-demo', orgIds: ['blueocean', 'njzsz'] });
    // ttlHours is honoured.
    expect(a.expiresAt).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(a.expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);

    const ctxA = await svc.authenticate(a.token);
    expect(ctxA.userId).toBe('u-demo');
    expect([...ctxA.visibleOrgIds].sort()).toEqual(['blueocean', 'blueocean-tankers', 'njzsz']);
    const [row] = await db.select().from(t.sessions).where(eq(t.sessions.id, ctxA.sessionId));
    expect(row).toMatchObject({ userId: 'u-demo', address: '127.0.0.1', userAgent: 'vitest', endedAt: null });

    await expect(svc.logon('demo', 'wrong', { address: '127.0.0.1' })).rejects.toMatchObject({ code: 401 });
    expect((await svc.authenticate(a.token)).sessionId).toBe(ctxA.sessionId);

    const b = await svc.logon('demo', DEMO_PASSWORD, { address: '127.0.0.2' });
    await expect(svc.authenticate(a.token)).rejects.toMatchObject({ code: 402 });
    const ctxB = await svc.authenticate(b.token);
    expect(ctxB.sessionId).not.toBe(ctxA.sessionId);
    expect(ended).toEqual([{ sessionId: ctxA.sessionId, userId: 'u-demo', reason: 'displaced' }]);

    await svc.heartbeat(ctxB);
    await svc.logout(ctxB);
    await expect(svc.authenticate(b.token)).rejects.toMatchObject({ code: 401 });
    await expect(svc.authenticate(a.token)).rejects.toMatchObject({ code: 402 });
    await expect(svc.authenticate(undefined)).rejects.toMatchObject({ code: 401 });
    await expect(svc.authenticate('garbage')).rejects.toMatchObject({ code: 401 });
    expect(ended.at(-1)).toEqual({ sessionId: ctxB.sessionId, userId: 'u-demo', reason: 'logout' });
  });

  it('SessionService: two instances with one JWT_SECRET share the sessions; the key is not in the database', async () => {
    const shared = sessionOptions;
    const one = new SessionService(db, shared);
    const two = new SessionService(db, shared);
    await Promise.all([one.init(), two.init()]);
    const keys = await db.select().from(t.settings).where(eq(t.settings.key, 'jwt-signing-key'));
    expect(keys).toHaveLength(0);

    const a = await one.logon('njzsz', DEMO_PASSWORD, { address: '10.0.0.1' });
    expect((await two.authenticate(a.token)).user.id).toBe('u-njzsz');
    // A sign-in on the other instance displaces the first at once, everywhere.
    const b = await two.logon('njzsz', DEMO_PASSWORD, { address: '10.0.0.2' });
    await expect(one.authenticate(a.token)).rejects.toMatchObject({ code: 402 });
    await expect(two.authenticate(a.token)).rejects.toMatchObject({ code: 402 });
    // A logout on one instance is seen by the other.
    await one.logout(await one.authenticate(b.token));
    await expect(two.authenticate(b.token)).rejects.toMatchObject({ code: 401 });
    // A restarted instance keeps accepting tokens: it is given the same secret.
    const c = await one.logon('njzsz', DEMO_PASSWORD, { address: '10.0.0.1' });
    const restarted = new SessionService(db, shared);
    await restarted.init();
    expect((await restarted.authenticate(c.token)).user.id).toBe('u-njzsz');
  });

  it('SessionService: simultaneous sign-ins of one user end with one active session', async () => {
    const svc = new SessionService(db, sessionOptions);
    const other = new SessionService(db, sessionOptions);
    await svc.init();
    await other.init();
    const results = await Promise.all([
      svc.logon('demo', DEMO_PASSWORD, { address: '10.0.0.1' }),
      other.logon('demo', DEMO_PASSWORD, { address: '10.0.0.2' }),
      svc.logon('demo', DEMO_PASSWORD, { address: '10.0.0.3' }),
    ]);
    const active = await db.select().from(t.sessions).where(and(eq(t.sessions.userId, 'u-demo'), isNull(t.sessions.endedAt)));
    expect(active).toHaveLength(1);
    const outcomes = await Promise.all(
      results.map((r) =>
        svc.authenticate(r.token).then(
          () => 200,
          (e: { code: number }) => e.code,
        ),
      ),
    );
    expect(outcomes.sort()).toEqual([200, 402, 402]);
  });

  it('FleetService answers the same shapes (numbers as numbers) on this database', async () => {
    const fleet = new FleetService(db);
    const access = await loadAccess(db, 'u-demo');
    const tree = await fleet.orgShipTree(access);
    expect(tree.map((n) => n.organizationid).sort()).toEqual(['blueocean', 'njzsz']);
    const channels: Record<string, Channel[]> = {};
    for (const ship of demoShips) channels[ship.id] = await fleet.channels(access, ship.id);
    const stats: Record<string, ShipsAndChannels> = {};
    for (const orgId of ['blueocean', 'blueocean-tankers', 'njzsz']) {
      stats[orgId] = await fleet.shipsAndChannels(access, orgId);
      for (const value of [stats[orgId].shipCount, stats[orgId].channelCount, stats[orgId].blockedChannelCount, stats[orgId].cameraCount]) {
        expect(typeof value).toBe('number');
      }
    }
    const allChannels = Object.values(channels).flat();
    expect((stats.blueocean?.blockedChannelCount ?? 0) + (stats.njzsz?.blockedChannelCount ?? 0)).toBe(allChannels.filter((c) => c.block === 1).length);
    const configs = await Promise.all(demoShips.map((s) => fleet.shipConfig(access, s.orgId, s.id)));
    const tags = await fleet.channelTags(access, undefined);
    const shutdown = await fleet.playbackAutoShutdown(access, 'blueocean');
    expect(shutdown.minutes).toBe(20);

    const njzsz = await loadAccess(db, 'u-njzsz');
    await expect(fleet.channels(njzsz, 'S1001')).rejects.toMatchObject({ code: 403 });
    // An unknown ship is refused as another organisation's is: the answer tells no ids apart.
    await expect(fleet.channels(njzsz, 'nope')).rejects.toMatchObject({ code: 403 });
    const njzszTree: OrgShipTreeNode[] = await fleet.orgShipTree(njzsz);
    expect(njzszTree.map((n) => n.organizationid)).toEqual(['njzsz']);

    answers.set(kind, { tree, channels, stats, configs, tags, shutdown, njzszTree });
  });

  it(
    'reopening a database applies no migration twice and keeps the data; concurrent starts seed once',
    async () => {
      if (kind === 'pglite') {
        const dir = mkdtempSync(join(tmpdir(), 'shipcctv-pglite-'));
        try {
          const first = await openDatabase({ dataDir: join(dir, 'nested', 'data') });
          // Two seeders at once on one embedded database (e.g. a double start in one process).
          const seeded = await Promise.all([seedDemoFleet(first.db), seedDemoFleet(first.db)]);
          expect(seeded.sort()).toEqual([false, true]);
          const counts = await seedCounts(first.db);
          await first.close();
          const again = await openDatabase({ dataDir: join(dir, 'nested', 'data') });
          try {
            const applied = await rows<{ n: number | string }>(again.db, sql`select count(*) as n from drizzle.__drizzle_migrations`);
            expect(Number(applied[0]?.n)).toBe(journal.entries.length);
            expect(await seedCounts(again.db)).toEqual(counts);
            expect(await seedDemoFleet(again.db)).toBe(false);
            expect(counts).toEqual(await seedCounts(db));
          } finally {
            await again.close();
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        return;
      }

      const target = await createPostgresDatabase();
      const opened: Database[] = [];
      try {
        // Two server instances start at once on an empty database: migrations and seed happen once.
        const [a, b] = await Promise.all([openDatabase({ url: target.url }), openDatabase({ url: target.url })]);
        opened.push(a, b);
        const applied = await rows<{ n: number | string }>(a.db, sql`select count(*) as n from drizzle.__drizzle_migrations`);
        expect(Number(applied[0]?.n)).toBe(journal.entries.length);
        const seeded = await Promise.all([seedDemoFleet(a.db), seedDemoFleet(b.db), seedDemoFleet(a.db)]);
        expect(seeded.sort()).toEqual([false, false, true]);
        const counts = await seedCounts(a.db);
        expect(counts).toEqual(await seedCounts(db));

        const c = await openDatabase({ url: target.url });
        opened.push(c);
        const reapplied = await rows<{ n: number | string }>(c.db, sql`select count(*) as n from drizzle.__drizzle_migrations`);
        expect(Number(reapplied[0]?.n)).toBe(journal.entries.length);
        expect(await seedCounts(c.db)).toEqual(counts);
      } finally {
        for (const d of opened) await d.close();
        await target.drop();
      }
    },
    60_000,
  );
});

describe('pglite and PostgreSQL', () => {
  it('give the same answers from the fleet service', () => {
    expect(answers.has('pglite')).toBe(true);
    expect(answers.has('postgres')).toBe(true);
    expect(answers.get('postgres')).toEqual(answers.get('pglite'));
  });
});
